/* Helper for preprocessor-include.imcl: the error is here. */
float weight(float x) {
    return x * missing_factor;
}

# Running a test's nvcc-built program on a GPU (docs/testing.md, "Running CUDA on a GPU").
#
# `gpu_run LABEL TIMEOUT PROGRAM [ARGS...]`, called in the folder the program runs in:
#  - when nvidia-smi lists a GPU, runs PROGRAM ARGS there (under `timeout TIMEOUT`) and
#    returns its status;
#  - else, when IMCL_GPU_BUNDLE names a folder, copies PROGRAM into its bin/ as LABEL and
#    adds the line "LABEL TIMEOUT ARGS..." to its `list`, for `scripts/gpu-check.sh run`
#    on a machine that has a GPU but nothing to build with; returns 0;
#  - else says the program was linked and not run; returns 0.
# LABEL is letters, digits, '.', '_', '-' and '@' (it names a file); ARGS have no spaces.
gpu_present() {
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'
}

gpu_run() {
    local label=$1 limit=$2 program=$3
    shift 3
    if gpu_present; then
        timeout "$limit" "$program" "$@"
    elif [ -n "${IMCL_GPU_BUNDLE:-}" ]; then
        mkdir -p "$IMCL_GPU_BUNDLE/bin" &&
            cp "$program" "$IMCL_GPU_BUNDLE/bin/$label" &&
            echo "$label $limit${*:+ $*}" >>"$IMCL_GPU_BUNDLE/list" &&
            echo "cuda: linked, put in the GPU bundle as $label (no GPU here)"
    else
        echo "cuda: linked (no GPU here, not run on one)"
    fi
}

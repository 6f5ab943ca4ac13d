"""imcl's restrictions in a form every Kernel Tuner path evaluates alike.

imcl writes each restriction as a Python expression over the parameters, with
string values quoted: `(mem_in == 'shared') * (...) <= 32768`. Kernel Tuner 1.5.0
evaluates restriction strings in three ways:

* the default search-space builder (python-constraint) compiles them with the
  parameters as variables: correct;
* the "bruteforce" search-space framework and the simulation runner
  (`kernel_tuner.util.check_restriction`) paste each value into the text with
  `str(value)`, unquoted: `(global == 'shared')`, a SyntaxError (`global` is a
  Python keyword), or a NameError for `shared`/`constant`.

So a restriction that names a string-valued parameter is handed to Kernel Tuner
as a plain function (not a lambda: Kernel Tuner turns lambdas back into strings)
that takes the configuration in each of the three ways Kernel Tuner calls one:
keyword arguments (`check_restriction`), one dict (a monolithic restriction), or
the values positionally in the order of `tune_params` (python-constraint's
FunctionConstraint over all variables). Restrictions over integer parameters only
stay strings: pasting integers is exact, and python-constraint optimises them; but
not one with a conditional expression (the register estimate's `(24 if batch_loop
== 1 else 0)`), whose inner comparison python-constraint 1.x's parser takes for the
restriction's own and cuts the text there (a SyntaxError): that one is a function too.
"""

import re

_NAME = re.compile(r"[A-Za-z_]\w*")
_CONDITIONAL = re.compile(r"\bif\b")


def names_in(expr, params):
    """The parameters an expression uses, in order of first use."""
    seen = []
    for n in _NAME.findall(expr):
        if n in params and n not in seen:
            seen.append(n)
    return seen


def make_restriction(expr, param_names):
    """A function evaluating `expr` on a configuration, however Kernel Tuner passes it."""
    code = compile(expr, f"<imcl restriction: {expr}>", "eval")
    order = list(param_names)
    env = {"__builtins__": {}}

    def imcl_restriction(*args, **kwargs):
        if kwargs:
            config = kwargs
        elif len(args) == 1 and isinstance(args[0], dict):
            config = args[0]
        else:
            config = dict(zip(order, args))
        return bool(eval(code, env, config))

    imcl_restriction.__doc__ = expr
    imcl_restriction.expression = expr
    imcl_restriction.parameters = names_in(expr, order)
    return imcl_restriction


def for_kernel_tuner(restrictions, tune_params):
    """imcl's restriction strings as Kernel Tuner restrictions: strings where every
    parameter they name has integer values, functions where one has strings or the
    expression holds a conditional (` if `)."""
    names = list(tune_params)
    stringy = {p for p, vals in tune_params.items() if any(isinstance(v, str) for v in vals)}
    out = []
    for expr in restrictions:
        if stringy.intersection(names_in(expr, names)) or _CONDITIONAL.search(expr):
            out.append(make_restriction(expr, names))
        else:
            out.append(expr)
    return out


def holds(restrictions, config):
    """Whether a configuration satisfies imcl's restriction strings (imcl's own meaning:
    `eval` with the configuration as the variables, docs/tuning.md)."""
    return all(eval(r, {"__builtins__": {}}, dict(config)) for r in restrictions)

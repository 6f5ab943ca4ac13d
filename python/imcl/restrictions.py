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
not one with a conditional expression (` if `, which imcl no longer writes: its
register estimate's terms are `N * (1 - 1 // x)`), whose inner comparison
python-constraint's parser takes for the restriction's own and cuts the text there (a
SyntaxError): that one is a function too.

A function names no parameters Kernel Tuner could index, so python-constraint checks it
only on complete configurations: the space is built by enumerating every combination
(minutes for a 3D kernel's million configurations). `coded` gives the fast form that
`imcl.tune` uses: every string value as an integer code (its index in the parameter's
list), every restriction a string over integers, which every path evaluates alike and
python-constraint indexes by the parameters it names.
"""

import ast
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


class _Coder(ast.NodeTransformer):
    """`p == 'v'` and `p != 'v'` (either side) with p a coded parameter: 'v' replaced by
    its code, -1 for a value not in the list (never equal)."""

    def __init__(self, codes):
        self.codes = codes

    def visit_Compare(self, node):
        self.generic_visit(node)
        operands = [node.left] + node.comparators
        for i, op in enumerate(node.ops):
            if not isinstance(op, (ast.Eq, ast.NotEq)):
                continue
            for a, b in ((i, i + 1), (i + 1, i)):
                name, value = operands[a], operands[b]
                if isinstance(name, ast.Name) and name.id in self.codes and \
                        isinstance(value, ast.Constant) and isinstance(value.value, str):
                    values = self.codes[name.id]
                    operands[b] = ast.Constant(values.index(value.value) if value.value in values else -1)
        node.left, node.comparators = operands[0], operands[1:]
        return node


def coded(restrictions, tune_params):
    """imcl's restrictions and parameters with every string value an integer code:
    (tune_params, restrictions, codes), codes mapping each such parameter to its list of
    values (the code of a value is its index there). Every restriction is a string
    Kernel Tuner parses, indexes and evaluates alike on every path."""
    codes = {p: list(vals) for p, vals in tune_params.items() if any(isinstance(v, str) for v in vals)}
    params = {p: (list(range(len(vals))) if p in codes else list(vals)) for p, vals in tune_params.items()}
    names = list(tune_params)
    out = []
    for expr in restrictions:
        if not codes.keys() & set(names_in(expr, names)):
            out.append(expr)
            continue
        tree = _Coder(codes).visit(ast.parse(expr, mode="eval"))
        out.append(ast.unparse(tree))
    return params, out, codes


def holds(restrictions, config):
    """Whether a configuration satisfies imcl's restriction strings (imcl's own meaning:
    `eval` with the configuration as the variables, docs/tuning.md)."""
    return all(eval(r, {"__builtins__": {}}, dict(config)) for r in restrictions)

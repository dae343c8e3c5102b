#!/usr/bin/env python3
"""Writes tests/seeds/examples.def, the worked examples of the operator
specifications (the seed files), for tests/test_seeds_*.c.

Run once, by hand, where the seed files are (they are not part of the
repository; the examples they print are, through the file this writes):

    python3 tests/seeds/extract-examples.py /work/shared/seeds > tests/seeds/examples.def

Each example is found by an anchor in its seed file and read as the seed
prints it: the `name = [...]` lines of the ONNX pages (prose and numpy
code, "# Expecting output" comments included) and the `values: [...]`
comments of OpenVINO's XML.  What the seeds print wrong stays as printed
here: the corrections (DESIGN.md section 2, docs/semantics.md "Seed
errata") are made, explicitly, in tests/test_seeds_*.c.  Only what the
seeds' markup lost is restored here, each case listed in REPAIRS with its
reason, and marked in the output.
"""
import ast
import glob
import os
import re
import sys

# (name, seed file, anchor, what the seed says of the types, fields):
# fields are read in order after the anchor; "xml" reads OpenVINO's
# values comments, "dims" OpenVINO's <dim> lists (shapes only).
EXAMPLES = [
    ("scatternd_example1", "000", "Example 1:", "untyped",
     ["data", "indices", "updates", "output"]),
    ("scatternd_example2", "000", "Example 2:", "untyped",
     ["data", "indices", "updates", "output"]),
    ("scatternd_add", "000", "_scatternd_add", "float32",
     ["data", "indices", "updates", "# Expecting output"]),
    ("scatternd_multiply", "000", "_scatternd_multiply", "float32",
     ["data", "indices", "updates", "# Expecting output"]),
    ("scatternd_max", "000", "_scatternd_max", "float32",
     ["data", "indices", "updates", "# Expecting output"]),
    ("scatternd_min", "000", "_scatternd_min", "float32",
     ["data", "indices", "updates", "# Expecting output"]),
    ("ov_text_example1", "001", "Example 1 that shows simple case", "untyped",
     ["data", "indices", "updates", "output"]),
    ("ov_xml_example1_none", "001", 'reduction="none" type="ScatterNdUpdate"', "FP32", "xml"),
    ("ov_xml_example2_sum", "001", 'reduction="sum" type="ScatterNdUpdate"', "FP16", "xml"),
    ("ov_xml_example3_sub", "001", 'reduction="sub" type="ScatterNdUpdate"', "I32", "xml"),
    ("ov_xml_example4_prod", "001", 'reduction="prod" type="ScatterNdUpdate"', "FP32", "xml"),
    ("ov_xml_example5_shapes", "001", 'reduction="none" type="ScatterNDUpdate"', "untyped",
     "dims"),
    ("gathernd_example1", "002", "Example 1\n", "untyped", ["data", "indices", "output"]),
    ("gathernd_example2", "002", "Example 2\n", "untyped", ["data", "indices", "output"]),
    ("gathernd_example3", "002", "Example 3\n", "untyped", ["data", "indices", "output"]),
    ("gathernd_example4", "002", "Example 4\n", "untyped", ["data", "indices", "output"]),
    ("gathernd_example5", "002", "Example 5\n", "untyped", ["data", "indices", "output"]),
    ("scatter_example1", "003", "Example 1: ::", "untyped",
     ["data", "indices", "updates", "output"]),
    ("scatter_example2", "003", "Example 2: ::", "untyped",
     ["data", "indices", "updates", "output"]),
]

# What the seeds' markup lost, (example, field): (value, reason).
REPAIRS = {
    ("gathernd_example2", "indices"): (
        [[1], [0]], 'the seed prints "indices = [,]": its brackets were lost; '
        "shape [2, 1] (its comment) and output [[2,3],[0,1]] make it [[1],[0]]"),
    ("gathernd_example5", "indices"): (
        [[1], [0]], 'the seed prints "indices = [,]": its brackets were lost; '
        "shape [2, 1] (its comment), batch_dims 1 and output [[2,3],[4,5]] make it [[1],[0]]"),
}

# The attribute each example is printed with (reduction, batch_dims, axis).
ATTRIBUTES = {
    "scatternd_add": "add", "scatternd_multiply": "mul", "scatternd_max": "max",
    "scatternd_min": "min", "ov_xml_example2_sum": "add", "ov_xml_example3_sub": "sub",
    "ov_xml_example4_prod": "mul", "gathernd_example5": "batch_dims 1",
    "scatter_example2": "axis 1",
}


def seed_text(seeds, number):
    (path,) = glob.glob(os.path.join(seeds, number + "_*.txt"))
    with open(path, encoding="utf-8") as f:
        return os.path.basename(path), f.read()


def balanced(text, start):
    """The bracketed list that opens at or after start."""
    i = text.index("[", start)
    depth = 0
    for j in range(i, len(text)):
        depth += {"[": 1, "]": -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j + 1], j + 1
    raise ValueError("unbalanced list at %d" % i)


def literal(listing):
    # "# Expecting output" comments carry a '#' per line; the Scatter page
    # prints output rows without the commas between them.
    listing = re.sub(r"\n\s*#", "\n", listing)
    listing = re.sub(r"\]\s*\[", "], [", listing)
    return ast.literal_eval(listing)


def shape_of(value):
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0] if value else None
    return shape


def flat(value):
    if isinstance(value, list):
        return [x for v in value for x in flat(v)]
    return [value]


def read_fields(name, text, at, fields):
    found = {}
    for field in fields:
        key = "output" if field.startswith("#") else field
        m = re.compile(re.escape(field) + r"(\s*=|\s+as np\.array\()").search(text, at)
        if m is None:
            raise ValueError("%s: no %r after the anchor" % (name, field))
        if (name, key) in REPAIRS:
            found[key] = REPAIRS[(name, key)][0]
            at = m.end()
            continue
        listing, at = balanced(text, m.end())
        found[key] = literal(listing)
    return found


def read_xml(text, at):
    end = text.index("</layer>", at)
    values = [literal(v) for v in re.findall(r"values: (\[[^\]]*\])", text[at:end])]
    return dict(zip(["data", "indices", "updates", "output"], values))


def read_dims(text, at):
    end = text.index("</layer>", at)
    ports = re.findall(r"<port[^>]*>(.*?)</port>", text[at:end], re.S)
    return [[int(d) for d in re.findall(r"<dim>(\d+)</dim>", p)] for p in ports]


def c_list(numbers):
    return "(" + ", ".join([str(len(numbers))] + [repr(x) for x in numbers]) + ")"


def tensor(value=None, dims=None):
    if dims is not None:
        return c_list(dims) + ", (0)"
    if value is None:
        return "(0), (0)"
    return c_list(shape_of(value)) + ", " + c_list(flat(value))


def main():
    seeds = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/seeds"
    out = ["/* Generated by tests/seeds/extract-examples.py from the seed files of the",
           "   operator specifications; do not edit.  One row per worked example, as",
           "   printed (seed typos included: the tests correct them, explicitly):",
           "     SEED_EXAMPLE(name, where, types, attribute, data, indices, updates,",
           "                  output)",
           "   each tensor as (rank, dims...), (count, values...); (0), (0) where the",
           "   example has none, and values (0) where the seed gives shapes only. */"]
    for name, number, anchor, types, fields in EXAMPLES:
        filename, text = seed_text(seeds, number)
        at = text.index(anchor)
        where = "%s: %s" % (filename, anchor.strip().replace('"', "'"))
        if fields == "xml":
            t = read_xml(text, at)
            # OpenVINO's indices are k-tuples: [5] values are indices [[0], ...].
            t["indices"] = [[i] for i in t["indices"]]
            tensors = [tensor(t[k]) for k in ("data", "indices", "updates", "output")]
        elif fields == "dims":
            tensors = [tensor(dims=d) for d in read_dims(text, at)]
        else:
            t = read_fields(name, text, at, fields)
            tensors = [tensor(t.get(k)) for k in ("data", "indices", "updates", "output")]
        for (ex, field), (_, reason) in sorted(REPAIRS.items()):
            if ex == name:
                out.append("/* %s: %s */" % (field, reason))
        out.append('SEED_EXAMPLE(%s, "%s", "%s", "%s",\n    %s)' % (
            name, where, types, ATTRIBUTES.get(name, "none"), ",\n    ".join(tensors)))
    print("\n".join(out))


if __name__ == "__main__":
    main()

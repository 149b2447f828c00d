#!/usr/bin/python3
"""A strict JSON oracle for notify's JSONParser: Python's json module, made as strict as
notify promises to be (RFC 8259; no NaN/Infinity; a key twice in an object refused;
integers only within 64 bits; no lone surrogates).

stdin: a JSON array of texts. stdout: a JSON array, one entry per text: null when refused,
else the value re-encoded canonically (sorted keys, no spaces), or, when a second text is
given as [text, ours], whether Python reads `ours` as the same value as `text`.
"""
import json
import sys


def refuse(*_):
    raise ValueError("refused")


def pairs(items):
    keys = [k for k, _ in items]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(items)


def integer(text):
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise ValueError("past 64 bits")
    return value


def has_lone_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    return False


def strict(text):
    value = json.loads(text, object_pairs_hook=pairs, parse_constant=refuse, parse_int=integer)
    if has_lone_surrogate(value):
        raise ValueError("lone surrogate")
    return value


results = []
for case in json.load(sys.stdin):
    text, ours = (case if isinstance(case, list) else (case, None))
    try:
        value = strict(text)
    except (ValueError, RecursionError):
        results.append(None)
        continue
    if ours is None:
        results.append(json.dumps(value, sort_keys=True, separators=(",", ":")))
    else:
        results.append(strict(ours) == value)
print(json.dumps(results))

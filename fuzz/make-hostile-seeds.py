#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the hostile seeds of issue 22 into fuzz/corpus/HARNESS/hostile-*: the
# shapes of tests/fc-hostile-shapes.c (deep nesting, amplification, long
# tokens, keys given twice, -0) at sizes a fuzzer can mutate. The files are
# committed; this script documents how they were made. fuzz/json.dict gives
# libFuzzer the tokens to nest them further (fuzz/run.sh passes it).
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = b'{"$schema":"https://www.speedscope.app/file-format-schema.json",'
CHUNK_HEAD = (b'{"version":"2","chunk_id":"0432a0a4c25f4697bf9f0a2fcbe6a814",'
              b'"profiler_id":"4d229f1d3807421ba62a5f8bc295d836","release":"1.0","environment":"test",'
              b'"client_sdk":{"name":"sentry.python","version":"2.13.0"},')
SAMPLES = (b'"profile":{"samples":[{"stack_id":0,"thread_id":"1","timestamp":1710805788.5},'
           b'{"stack_id":0,"thread_id":"1","timestamp":1710805788.51}],"stacks":[[0]],'
           b'"frames":[{"function":"main"}]}}')


def varint(n):
    out = b''
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def ld(tag, payload):
    return varint(tag << 3 | 2) + varint(len(payload)) + payload


def otlp_anyvalues(levels):
    x = b''
    for _ in range(levels):
        x = ld(5, ld(1, x))
    return ld(1, ld(1, ld(1, ld(2, x))))


def otlp_empty_samples(n):
    profile = b'\x12\x00' * n
    return ld(1, ld(2, ld(2, profile)))


SEEDS = {
    'fuzz-otlp-json': {
        'hostile-brackets': b'{"resourceProfiles":' + b'[' * 2000,
        'hostile-unknown-brackets': b'{"resourceProfiles":[],"x":' + b'[' * 2000,
        'hostile-anyvalues': b'{"resourceProfiles":[{"resource":{"attributes":[{"key":"k","value":'
                             + b'{"arrayValue":{"values":[' * 100,
        'hostile-empty-samples': b'{"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"samples":['
                                 + b'{},' * 1000 + b'{}]}]}]}]}',
        'hostile-long-number': b'{"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"period":'
                               + b'1' * 4000 + b'}]}]}]}',
    },
    'fuzz-speedscope': {
        'hostile-brackets': SCHEMA + b'"shared":{"frames":' + b'[' * 2000,
        'hostile-objects': SCHEMA + b'"shared":{"frames":[{"name":"a"}]},"x":' + b'{"a":' * 1000,
        'hostile-empty-profiles': SCHEMA + b'"shared":{"frames":[{"name":"a"}]},"profiles":[' + b'{},' * 1000 + b'{}]}',
        'hostile-events': SCHEMA + b'"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"evented","name":"t",'
                          b'"unit":"milliseconds","startValue":0,"endValue":1,"events":['
                          + b'{"type":"O","frame":0,"at":1},{"type":"C","frame":0,"at":1},' * 200
                          + b'{"type":"O","frame":0,"at":1},{"type":"C","frame":0,"at":1}]}]}',
    },
    'fuzz-payload': {
        'hostile-brackets': b'{"version":"2","platform":"native","x":' + b'[' * 2000,
        'hostile-objects': b'{"version":"2","platform":"native","profile":{"x":' + b'{"a":' * 1000,
        'hostile-long-number': b'{"version":"2","platform":"native","x":' + b'1' * 8000 + b'}',
        'hostile-duplicate-keys': CHUNK_HEAD + b'"platform":"python","platform":"cocoa",' + SAMPLES,
        'hostile-negative-zero': CHUNK_HEAD + b'"platform":"python",' + SAMPLES.replace(b'1710805788.5}', b'-0}'),
    },
    'fuzz-reader': {
        'hostile-brackets': b'{"version":"2","platform":"native","x":' + b'[' * 2000,
        'hostile-otlp-json-brackets': b'{"resourceProfiles":' + b'[' * 2000,
        'hostile-speedscope-brackets': SCHEMA + b'"shared":{"frames":' + b'[' * 2000,
        'hostile-duplicate-keys': CHUNK_HEAD + b'"platform":"python","platform":"cocoa",' + SAMPLES,
        'hostile-otlp-anyvalues': otlp_anyvalues(200),
    },
    'fuzz-envelope': {
        'hostile-transaction-brackets': b'{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n{"type":"transaction"}\n'
                                        b'{"spans":' + b'[' * 2000 + b'\n',
        'hostile-duplicate-keys': b'{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","event_id":"x"}\n'
                                  b'{"type":"transaction","type":"transaction"}\n{"type":"transaction"}\n',
        'hostile-many-items': b'{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n'
                              + b'{"type":"attachment","length":1}\n0\n' * 200,
    },
    'fuzz-pprof': {
        'hostile-empty-samples': b'\x32\x00' + b'\x12\x00' * 2000,
    },
    'fuzz-otlp': {
        'hostile-anyvalues': otlp_anyvalues(200),
        'hostile-empty-samples': otlp_empty_samples(2000),
    },
    'fuzz-folded': {
        'hostile-deep': b'a;' * 4000 + b'a 1\n',
    },
}

for harness, seeds in SEEDS.items():
    folder = os.path.join(HERE, 'corpus', harness)
    os.makedirs(folder, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(folder, name), 'wb') as f:
            f.write(data)

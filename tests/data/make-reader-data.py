#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates tests/data/good/ and tests/data/broken/ (the reader's inputs).
# The files are committed; this script documents how they were made.
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD = os.path.join(HERE, 'good')
BROKEN = os.path.join(HERE, 'broken')


def v2(samples=None, stacks=None, frames=None, threads=None, **top):
    doc = {
        'version': '2',
        'chunk_id': '0432a0a4c25f4697bf9f0a2fcbe6a814',
        'profiler_id': '4d229f1d3807421ba62a5f8bc295d836',
        'platform': 'python',
        'release': '1.0',
        'environment': 'test',
        'client_sdk': {'name': 'sentry.python', 'version': '2.13.0'},
        'profile': {
            'samples': samples if samples is not None else [
                {'stack_id': 0, 'thread_id': '1', 'timestamp': 1710805788.5},
                {'stack_id': 1, 'thread_id': '1', 'timestamp': 1710805788.51},
                {'stack_id': 0, 'thread_id': '2', 'timestamp': 1710805788.52},
            ],
            'stacks': stacks if stacks is not None else [[0], [1, 0]],
            'frames': frames if frames is not None else [
                {'function': 'main', 'filename': 'app.py', 'lineno': 1, 'in_app': True},
                {'function': 'work', 'filename': 'app.py', 'lineno': 7, 'in_app': True},
            ],
            'thread_metadata': threads if threads is not None else {
                '1': {'name': 'MainThread'}, '2': {'name': 'worker'},
            },
        },
    }
    doc.update(top)
    return doc


def v1(samples=None, **top):
    doc = {
        'version': '1',
        'event_id': 'a' * 32,
        'platform': 'python',
        'timestamp': '2024-08-27T12:43:45.575655Z',
        'device': {'architecture': 'x86_64'},
        'os': {'name': 'Linux', 'version': '6.1'},
        'transaction': {'id': 'b' * 32, 'name': 'GET /', 'trace_id': 'c' * 32, 'active_thread_id': '1'},
        'profile': {
            'samples': samples if samples is not None else [
                {'stack_id': 0, 'thread_id': '1', 'elapsed_since_start_ns': '0'},
                {'stack_id': 0, 'thread_id': '1', 'elapsed_since_start_ns': '10000000'},
            ],
            'stacks': [[0]],
            'frames': [{'function': 'main'}],
            'thread_metadata': {'1': {'name': 'MainThread'}},
        },
    }
    doc.update(top)
    return doc


def write(path, data):
    if isinstance(data, str):
        data = data.encode()
    with open(path, 'wb') as f:
        f.write(data)


def compact(obj):
    return json.dumps(obj, separators=(',', ':'))


def envelope(header, items, lengths=True, final_newline=True, content_type=True):
    out = [compact(header).encode()]
    for item_header, payload in items:
        payload = payload.encode() if isinstance(payload, str) else payload
        h = dict(item_header)
        if lengths:
            h['length'] = len(payload)
        if content_type:
            h['content_type'] = 'application/json'
        out.append(compact(h).encode())
        out.append(payload)
    data = b'\n'.join(out)
    return data + b'\n' if final_newline else data


def good():
    # sentry-python: every item with length and content_type, final newline; V1 profile + transaction
    tx_id = 'b' * 32
    tx = {'type': 'transaction', 'event_id': tx_id, 'transaction': 'GET /', 'platform': 'python',
          'start_timestamp': 1724762625.5, 'timestamp': 1724762626.5,
          'contexts': {'trace': {'trace_id': 'c' * 32, 'span_id': 'd' * 16, 'op': 'http.server'}},
          'sdk': {'name': 'sentry.python', 'version': '2.13.0'}}
    prof = v1()
    prof['transaction']['id'] = tx_id
    py = envelope({'event_id': tx_id, 'sent_at': '2024-08-27T12:43:46.000000Z',
                   'sdk': {'name': 'sentry.python', 'version': '2.13.0'}},
                  [({'type': 'transaction'}, json.dumps(tx, indent=2)),
                   ({'type': 'profile'}, json.dumps(prof, indent=1)),
                   ({'type': 'client_report'}, compact({'discarded_events': []}))])
    write(os.path.join(GOOD, 'python-v1.envelope'), py)
    write(os.path.join(GOOD, 'python-v1.envelope.gz'), gzip.compress(py, mtime=0))

    # profiling-node: no length, no content_type, no final newline; V2 chunk + linked transaction
    chunk = v2(platform='node', client_sdk={'name': 'sentry.javascript.node', 'version': '8.0.0'})
    node_tx = {'type': 'transaction', 'event_id': 'e' * 32, 'transaction': 'job', 'platform': 'node',
               'start_timestamp': 1710805788.4, 'timestamp': 1710805788.6,
               'contexts': {'profile': {'profiler_id': '4d229f1d-3807-421b-a62a-5f8bc295d836'},
                            'trace': {'trace_id': 'c' * 32, 'span_id': 'd' * 16, 'op': 'job',
                                      'data': {'thread.id': '1'}}},
               'sdk': {'name': 'sentry.javascript.node', 'version': '8.0.0'}}
    node = envelope({'sent_at': '2024-03-19T00:00:00.000Z', 'sdk': {'name': 'sentry.javascript.node', 'version': '8.0.0'}},
                    [({'type': 'profile_chunk', 'platform': 'node'}, compact(chunk)),
                     ({'type': 'transaction'}, compact(node_tx))],
                    lengths=False, final_newline=False, content_type=False)
    write(os.path.join(GOOD, 'node-v2.envelope'), node)

    # lengths, but no final newline; and an empty attachment with length 0
    mixed = envelope({'event_id': 'f' * 32},
                     [({'type': 'attachment', 'filename': 'empty.txt'}, ''),
                      ({'type': 'profile_chunk', 'platform': 'python'}, compact(v2()))],
                     lengths=True, final_newline=False)
    write(os.path.join(GOOD, 'length-no-final-newline.envelope'), mixed)

    # a compact single-line V2 chunk with a trailing newline is a payload, not an envelope
    write(os.path.join(GOOD, 'compact-v2.json'), compact(v2()) + '\n')

    # key order is free: version after profile, stacks and frames after samples,
    # timestamps with an exponent, numeric-looking string thread ids, frames repeated
    odd = {'profile': {'samples': [
                {'timestamp': 1.7108057885e9, 'stack_id': 1, 'thread_id': '42', 'state': 'running'},
                {'timestamp': 1710805788.4999995, 'stack_id': 0, 'thread_id': '42'},
                {'timestamp': 171080578851e-2, 'stack_id': 2, 'thread_id': '43'}],
            'stacks': [[0], [1, 0], []],
            'frames': [{'function': 'main', 'x_custom': [1, {'a': None}]},
                       {'function': '', 'lineno': 3, 'instruction_addr': '0x0000000102adc700'}],
            'thread_metadata': {'43': {'name': 'idle', 'priority': 3}, '99': {}},
            'queue_metadata': {'q': {'label': 'main'}}},
           'platform': 'native', 'version': '2', 'chunk_id': '1' * 32, 'profiler_id': '2' * 32,
           'client_sdk': {'name': 'flamecast', 'version': '0.1.0'}, 'measurements': {}}
    write(os.path.join(GOOD, 'key-order.json'), json.dumps(odd, indent=2))

    # V1 as SDKs really send it: elapsed as string or integer, numeric thread ids, out of order
    unordered = v1(samples=[
        {'stack_id': 0, 'thread_id': 7, 'elapsed_since_start_ns': 20000000},
        {'stack_id': 0, 'thread_id': '7', 'elapsed_since_start_ns': '10000000'},
        {'stack_id': 0, 'thread_id': 8, 'elapsed_since_start_ns': '30000000'}])
    unordered['profile']['thread_metadata'] = {'7': {'name': 'main'}}
    write(os.path.join(GOOD, 'v1-unordered.json'), json.dumps(unordered, indent=2))


def broken():
    files = {}
    base = json.dumps(v2(), indent=2)
    files['truncated.json'] = base[: len(base) // 2]
    files['not-json.txt'] = 'this is not JSON at all\n'
    files['empty.json'] = ''
    files['whitespace-only.json'] = '  \n\t\n'
    files['top-level-array.json'] = '[{"version": "2"}]'
    files['trailing-garbage.json'] = base + '\n}{'
    files['samples-not-array.json'] = json.dumps(v2(samples={'0': {}}))
    files['sample-not-object.json'] = json.dumps(v2(samples=[1, 2]))
    files['stacks-not-arrays.json'] = json.dumps(v2(stacks=[{'0': 0}]))
    files['frames-not-objects.json'] = json.dumps(v2(frames=['main']))
    files['thread-metadata-array.json'] = json.dumps(v2(threads=[]))
    files['stack-id-string.json'] = json.dumps(v2(samples=[
        {'stack_id': 0, 'thread_id': '1', 'timestamp': 1710805788.5},
        {'stack_id': '1', 'thread_id': '1', 'timestamp': 1710805788.51}]))
    files['stack-id-negative.json'] = json.dumps(v2(samples=[
        {'stack_id': -1, 'thread_id': '1', 'timestamp': 1710805788.5}]))
    files['stack-id-huge.json'] = json.dumps(v2(samples=[
        {'stack_id': 4294967296, 'thread_id': '1', 'timestamp': 1710805788.5}]))
    files['stack-id-dangling.json'] = json.dumps(v2(samples=[
        {'stack_id': 0, 'thread_id': '1', 'timestamp': 1710805788.5},
        {'stack_id': 1, 'thread_id': '1', 'timestamp': 1710805788.51},
        {'stack_id': 7, 'thread_id': '1', 'timestamp': 1710805788.52}]))
    files['frame-id-dangling.json'] = json.dumps(v2(stacks=[[0], [9, 0]]))
    files['frame-id-negative.json'] = json.dumps(v2(stacks=[[-3], [1, 0]]))
    files['frame-id-float.json'] = json.dumps(v2(stacks=[[0.5], [1, 0]]))
    files['empty-samples.json'] = json.dumps(v2(samples=[]))
    files['timestamp-absurd.json'] = json.dumps(v2()).replace('1710805788.51', '1e300')
    files['timestamp-negative.json'] = json.dumps(v2()).replace('1710805788.51', '-1710805788.51')
    files['timestamp-string.json'] = json.dumps(v2()).replace('1710805788.51', '"1710805788.51"')
    files['v1-elapsed-negative.json'] = json.dumps(v1(samples=[
        {'stack_id': 0, 'thread_id': '1', 'elapsed_since_start_ns': -5}]))
    files['v1-elapsed-garbage.json'] = json.dumps(v1(samples=[
        {'stack_id': 0, 'thread_id': '1', 'elapsed_since_start_ns': '12ms'}]))
    files['v1-bad-timestamp.json'] = json.dumps(v1(timestamp='yesterday'))
    files['v1-missing-timestamp.json'] = json.dumps({k: v for k, v in v1().items() if k != 'timestamp'})
    deep = v2()
    deep['extra'] = 'DEEP'
    files['deep-nesting.json'] = json.dumps(deep).replace('"DEEP"', '[' * 100 + ']' * 100)
    files['invalid-utf8.json'] = json.dumps(v2()).encode().replace(b'MainThread', b'Main\xff\xfeThread')
    files['missing-profile.json'] = json.dumps({'version': '2', 'platform': 'python'})
    files['missing-stack-id.json'] = json.dumps(v2(samples=[{'thread_id': '1', 'timestamp': 1710805788.5}]))
    files['missing-thread-id.json'] = json.dumps(v2(samples=[{'stack_id': 0, 'timestamp': 1710805788.5}]))
    files['missing-timestamp.json'] = json.dumps(v2(samples=[{'stack_id': 0, 'thread_id': '1'}]))
    no_frames = v2()
    del no_frames['profile']['frames']
    files['missing-frames.json'] = json.dumps(no_frames)
    files['numeric-thread-id-v2.json'] = json.dumps(v2(samples=[
        {'stack_id': 0, 'thread_id': 1, 'timestamp': 1710805788.5},
        {'stack_id': 1, 'thread_id': 1, 'timestamp': 1710805788.51}]))
    files['unknown-version.json'] = json.dumps(v2(version='3'))
    files['version-number.json'] = json.dumps(v2(version=2))
    files['duplicate-samples.json'] = base.replace('"stacks":', '"samples": [],\n "stacks":', 1)
    files['lineno-string.json'] = json.dumps(v2(frames=[{'function': 'a', 'lineno': '12'}, {'function': 'b'}]))
    files['instruction-addr-garbage.json'] = json.dumps(v2(frames=[{'instruction_addr': 'main+12'}, {}]))
    files['in-app-string.json'] = json.dumps(v2(frames=[{'function': 'a', 'in_app': 'yes'}, {'function': 'b'}]))
    files['thread-priority-negative.json'] = json.dumps(v2(threads={'1': {'name': 'main', 'priority': -2}}))
    files['not-a-profile.json'] = json.dumps({'type': 'transaction', 'event_id': 'a' * 32})

    chunk = compact(v2())
    files['envelope-length-past-end.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' +
        compact({'type': 'profile_chunk', 'length': len(chunk) + 500}) + '\n' + chunk + '\n')
    files['envelope-bad-item-header.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' + '{"type": "profile_chunk", \n' + chunk + '\n')
    files['envelope-item-without-type.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' + compact({'length': len(chunk)}) + '\n' + chunk + '\n')
    files['envelope-byte-after-payload.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' +
        compact({'type': 'attachment', 'length': 3}) + '\n' + 'abcd\n' +
        compact({'type': 'profile_chunk'}) + '\n' + chunk + '\n')
    files['envelope-negative-length.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' + compact({'type': 'attachment', 'length': -4}) + '\n' + 'abcd\n')
    files['envelope-broken-chunk.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' +
        compact({'type': 'attachment', 'length': 3}) + '\n' + 'abc\n' +
        compact({'type': 'profile_chunk'}) + '\n' + chunk.replace('"stack_id":1', '"stack_id":"1"') + '\n')
    files['envelope-bad-transaction.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' + compact({'type': 'transaction'}) + '\n' + '{"event_id": \n' +
        compact({'type': 'profile_chunk'}) + '\n' + chunk + '\n')

    files['envelope-empty-transaction.envelope'] = (
        compact({'event_id': 'a' * 32}) + '\n' + compact({'type': 'transaction'}) + '\n\n' +
        compact({'type': 'profile_chunk'}) + '\n' + chunk + '\n')

    gz = gzip.compress(json.dumps(v2()).encode(), mtime=0)
    files['gzip-truncated.json.gz'] = gz[: len(gz) // 2]
    files['gzip-corrupt.json.gz'] = gz[:12] + bytes(b ^ 0x5a for b in gz[12:40]) + gz[40:]

    for name, data in files.items():
        write(os.path.join(BROKEN, name), data)


if __name__ == '__main__':
    os.makedirs(GOOD, exist_ok=True)
    os.makedirs(BROKEN, exist_ok=True)
    good()
    broken()

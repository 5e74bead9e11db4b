#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Wraps a recorded V2 chunk into an envelope with a transaction linked to it
# (contexts.profile.profiler_id) and a few nested spans over its time range,
# for the span track's screenshot:
#   tools/span-envelope.py CHUNK.json OUT.envelope
import json
import sys

chunk_path, out_path = sys.argv[1], sys.argv[2]
chunk = open(chunk_path, 'rb').read()
profile = json.loads(chunk)
times = [s['timestamp'] for s in profile['profile']['samples']]
t0, t1 = min(times), max(times)
length = t1 - t0
trace_id = '4bf92f3577b34da6a3ce929d0e0e4736'
root = '00f067aa0ba902b7'


def span(n, parent, op, description, begin, end):
    return {'span_id': '%016x' % n, 'parent_span_id': parent, 'trace_id': trace_id, 'op': op,
            'description': description, 'start_timestamp': t0 + begin * length, 'timestamp': t0 + end * length}


transaction = {
    'type': 'transaction', 'event_id': 'a' * 32, 'transaction': 'bench-write run', 'platform': 'native',
    'start_timestamp': t0, 'timestamp': t1,
    'contexts': {'trace': {'trace_id': trace_id, 'span_id': root, 'op': 'task'},
                 'profile': {'profiler_id': profile['profiler_id']}},
    'spans': [span(1, root, 'function', 'prepare buffers', 0.01, 0.08),
              span(2, root, 'serialize', 'write 64 chunks', 0.10, 0.85),
              span(3, '%016x' % 2, 'serialize.json', 'encode samples', 0.11, 0.48),
              span(4, '%016x' % 2, 'compress', 'gzip', 0.50, 0.83),
              span(5, '%016x' % 4, 'db.query', 'SELECT release FROM releases', 0.53, 0.58),
              span(6, root, 'file.write', 'fsync output', 0.87, 0.99)],
}
payload = json.dumps(transaction).encode()
with open(out_path, 'wb') as out:
    out.write(json.dumps({'event_id': 'a' * 32}).encode() + b'\n')
    out.write(json.dumps({'type': 'profile_chunk', 'length': len(chunk),
                          'platform': profile.get('platform', 'native')}).encode() + b'\n' + chunk + b'\n')
    out.write(json.dumps({'type': 'transaction', 'length': len(payload)}).encode() + b'\n' + payload + b'\n')

#!/usr/bin/env python3
"""Writes a large Node.js async_hooks trace for bench_load by repeating the
recorded sample (tests/data/samples/node/http-async-hooks.trace.json) N
times one after another: each copy is shifted by the sample's span in time
and by its largest async id in ids (executionAsyncId and triggerAsyncId
with it), so resources, creators and triggers stay distinct and valid.
Metadata and the process-long Environment slice are written once.

    tests/benchmarks/repeat-async-hooks.py 300 /tmp/async-hooks-1g.json   # 1.07 GB
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, '..', 'data', 'samples', 'node', 'http-async-hooks.trace.json')
NO_ID = '0xffffffffffffffff'  # Node's -1


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    copies, path = int(sys.argv[1]), sys.argv[2]
    with open(SAMPLE) as f:
        events = json.load(f)['traceEvents']
    times = [e['ts'] for e in events if 'ts' in e]
    span = max(times) - min(times) + 1000
    hooks = [e for e in events if e.get('cat') == 'node,node.async_hooks' and e['id'] != NO_ID]
    largest = max(int(e['id'], 16) for e in hooks)
    with open(path, 'w') as out:
        out.write('{"traceEvents":[')
        for k in range(copies):
            chunk = []
            for e in events:
                once = e.get('ph') == 'M' or (e.get('cat') == 'node,node.environment' and e.get('ph') in ('b', 'e'))
                if once and k > 0:
                    continue
                d = dict(e)
                if 'ts' in d:
                    d['ts'] += k * span
                if d.get('cat') == 'node,node.async_hooks' and d['id'] != NO_ID:
                    d['id'] = hex(int(d['id'], 16) + k * largest)
                    data = d.get('args', {}).get('data')
                    if data:
                        data = dict(data)
                        for key in ('executionAsyncId', 'triggerAsyncId'):
                            if data.get(key, 0) > 1:  # 0 and 1 are no resource
                                data[key] += k * largest
                        d['args'] = {'data': data}
                chunk.append(json.dumps(d, separators=(',', ':')))
            out.write((',' if k else '') + ','.join(chunk))
        out.write(']}')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates tests/data/payloads/: Sentry profiles of every shape the readers take, written by
# hand for the project (a made-up shop app), one file a variant. The files are committed; this
# script documents how they were made, and makes the same bytes each run.
#
# Shapes follow Sentry's published formats (shared/seeds: the Sample Format V1 and V2 pages and
# the SDK spec): what an SDK sends ("SDK form") and what Sentry stores after Relay ("stored":
# server keys, numeric thread ids, a `transaction` object), including the ways stored files are
# cut down (stacks that point at frames the file lacks, samples on stacks that do not exist).
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'payloads')

SHOP_IMAGE = {
    'debug_id': '7B3C1A2E-4D5F-3A6B-9C8D-1E2F3A4B5C6D',
    'image_addr': '0x0000000104a10000',
    'code_file': '/private/var/containers/Bundle/Application/0D3E7A52-6C1B-4F0A-9E8D-2B4C6A8E0F13/Shop.app/Shop',
    'type': 'macho',
    'image_size': 1048576,
    'image_vmaddr': '0x0000000100000000',
}
COCOA_MAIN = '0x00000001045f0c80'
COCOA_EVENTS = '0x000000016b7f3000'


def write_json(name, doc, indent=2):
    with open(os.path.join(OUT, name), 'w') as f:
        json.dump(doc, f, indent=indent)
        f.write('\n')


def v2_cocoa():
    """V2 chunk as sentry-cocoa sends it: hex thread ids, frames that are addresses only, one
    macho image, a second thread with no samples, no environment."""
    return {
        'version': '2',
        'chunk_id': '5f0b9a8c3e2d4f61a7b8c9d0e1f2a3b4',
        'profiler_id': '8c1e2d3f4a5b46c7a8e9f0a1b2c3d4e5',
        'timestamp': 1717171700.125,
        'release': '2.3 (41)',
        'platform': 'cocoa',
        'client_sdk': {'name': 'sentry.cocoa', 'version': '8.36.0'},
        'profile': {
            'samples': [
                {'stack_id': i % 2, 'thread_id': COCOA_MAIN, 'timestamp': t}
                for i, t in enumerate([1717171717.25, 1717171717.26, 1717171717.27, 1717171717.28])
            ],
            'stacks': [[0], [1]],
            'frames': [{'instruction_addr': '0x0000000104a1c2d4'}, {'instruction_addr': '0x0000000104a1b9f0'}],
            'thread_metadata': {
                COCOA_MAIN: {'name': 'com.apple.main-thread'},
                COCOA_EVENTS: {'name': 'com.apple.uikit.eventfetch-thread'},
            },
        },
        'debug_meta': {'images': [SHOP_IMAGE]},
    }


def v2_cocoa_stored():
    """The same chunk as Sentry stores it after Relay: server keys, and measurements in hz."""
    doc = v2_cocoa()
    doc.update({'received': 1717171718.5, 'organization_id': 7, 'project_id': 42, 'retention_days': 90})
    doc['measurements'] = {'cpu': {'unit': 'hz', 'values': [
        {'timestamp': 1717171717.25, 'value': 48},
        {'timestamp': 1717171717.75, 'value': 51},
    ]}}
    return doc


def v1_cocoa():
    """V1 transaction profile as sentry-cocoa sends it: string elapsed times, queue addresses
    and labels, a thread priority, transactions[] whose active thread has no samples."""
    return {
        'event_id': '2c7e9d4b1a3f4e5d8c6b7a9e0f1d2c3b',
        'version': '1',
        'os': {'name': 'iOS', 'version': '17.4', 'build_number': '21E219'},
        'device': {'architecture': 'arm64e', 'is_emulator': False, 'locale': 'en_GB',
                   'manufacturer': 'Apple', 'model': 'iPhone15,2'},
        'timestamp': '2024-03-05T14:30:00.000Z',
        'profile': {
            'samples': [
                {'stack_id': i % 2, 'thread_id': '1', 'queue_address': '0x00000001f3b2c500',
                 'elapsed_since_start_ns': str(e)}
                for i, e in enumerate([12000250, 22000250, 32000250, 42000250])
            ],
            'stacks': [[0], [1]],
            'frames': [{'instruction_addr': '0x0000000104a1c2d4'}, {'instruction_addr': '0x0000000104a1b9f0'}],
            'thread_metadata': {'1': {'priority': 31}, '2': {}},
            'queue_metadata': {
                '0x00000001f3b2c500': {'label': 'com.apple.main-thread'},
                '0x000000016b7f3000': {'label': 'com.example.shop.images'},
            },
        },
        'release': '2.3 (41)',
        'platform': 'cocoa',
        'debug_meta': {'images': [SHOP_IMAGE]},
        'transactions': [{
            'name': 'ShopUI.CartViewController',
            'trace_id': '6e1f2a3b4c5d4e6f8a9b0c1d2e3f4a5b',
            'id': '9a8b7c6d5e4f40312a1b2c3d4e5f6071',
            'active_thread_id': '259',
            'relative_start_ns': '1000250',
            'relative_end_ns': '52000250',
            'segment_id': 'a1b2c3d4e5f60718',
        }],
    }


def v1_cocoa_symbolicated():
    """A stored, symbolicated V1 cocoa profile cut down to seven frames: three stacks start
    with a frame the file does not carry, one stack is empty, and the fourth sample names a
    stack that does not exist. Four threads, one of them named and active."""
    libsystem = '/usr/lib/system/libsystem_kernel.dylib'
    names = ['mach_msg2_trap', 'mach_msg2_internal', 'mach_msg_overwrite', 'mach_msg',
             '__CFRunLoopServiceMachPort', '__CFRunLoopRun', 'CFRunLoopRunSpecific']
    frames = [{'data': {}, 'function': n, 'in_app': False, 'instruction_addr': hex(0x1800a1000 + 0x40 * i),
               'package': libsystem, 'status': 'symbolicated', 'sym_addr': hex(0x1800a1000 + 0x40 * i - 8),
               'symbol': n, 'platform': 'cocoa'} for i, n in enumerate(names)]
    return {
        'client_sdk': {'name': 'sentry.cocoa', 'version': '8.36.0'},
        'debug_meta': {'images': [dict(SHOP_IMAGE, debug_status='unused',
                                       features={'has_debug_info': False, 'has_sources': False,
                                                 'has_symbols': False, 'has_unwind_info': False})]},
        'device': {'architecture': 'arm64e', 'classification': 'high', 'locale': 'en_GB',
                   'manufacturer': 'Apple', 'model': 'iPhone15,2'},
        'environment': 'production',
        'event_id': 'd4c3b2a1f0e94d8c8b7a69584736251a',
        'os': {'build_number': '21E219', 'name': 'iOS', 'version': '17.4'},
        'organization_id': 7,
        'platform': 'cocoa',
        'project_id': 42,
        'received': 1709649001,
        'release': 'com.example.shop@2.3+41',
        'retention_days': 90,
        'runtime': {'name': '', 'version': ''},
        'timestamp': '2024-03-05T14:30:00.125Z',
        'profile': {
            'frames': frames,
            'queue_metadata': None,
            'samples': [
                {'elapsed_since_start_ns': e, 'stack_id': s, 'thread_id': 259}
                for e, s in [(80125000, 0), (90250000, 2), (100375000, 3), (110500000, 4)]
            ],
            'stacks': [[510, 1, 2, 3, 4, 5, 6], [], [511, 1, 2, 3, 4, 5, 6], [512, 0, 1, 2, 3, 4, 5, 6]],
            'thread_metadata': {'16131': {'priority': 31}, '259': {'name': 'main', 'priority': 31},
                                '5635': {'priority': 31}, '8747': {'priority': 31}},
        },
        'transaction': {'active_thread_id': 259, 'id': 'e5f60718293a4b5c8d9e0f1a2b3c4d5e', 'name': 'launch',
                        'trace_id': 'f0e1d2c3b4a54968a7b6c5d4e3f2a1b0', 'segment_id': '0a1b2c3d4e5f6071'},
        'version': '1',
    }


def v1_python_stored():
    """A stored V1 python profile cut down to four frames: four threads with one sample each
    (numeric thread ids), stacks that reach past the frames, a thread without metadata, a
    transaction object without relative times."""
    def frame(function, module, lineno, path):
        return {'data': {}, 'filename': path.split('/lib/python3.12/')[-1].replace('site-packages/', ''),
                'function': function, 'in_app': False, 'lineno': lineno, 'module': module,
                'abs_path': path, 'platform': 'python'}
    frames = [
        frame('_worker', 'concurrent.futures.thread', 89, '/usr/lib/python3.12/concurrent/futures/thread.py'),
        frame('Thread.run', 'threading', 1010, '/usr/lib/python3.12/threading.py'),
        frame('Thread._bootstrap_inner', 'threading', 1073, '/usr/lib/python3.12/threading.py'),
        frame('Thread._bootstrap', 'threading', 1030, '/usr/lib/python3.12/threading.py'),
    ]
    threads = [140230401459904, 140230418245312, 140230409852608, 140230393067200]
    return {
        'client_sdk': {'name': 'sentry.python.django', 'version': '2.19.0'},
        'debug_meta': {},
        'device': {'architecture': 'x86_64', 'classification': '', 'locale': '', 'manufacturer': '', 'model': ''},
        'environment': 'production',
        'event_id': '3b4c5d6e7f8041a2b3c4d5e6f7a8b9c0',
        'os': {'build_number': '', 'name': 'Linux', 'version': '6.1.0-18-amd64'},
        'options': None,
        'organization_id': 7,
        'platform': 'python',
        'project_id': 43,
        'received': 1718180000,
        'release': 'shop-api@4.2.0',
        'retention_days': 90,
        'runtime': {'name': 'CPython', 'version': '3.12.3'},
        'sampled': True,
        'timestamp': '2024-06-12T08:13:19.250000Z',
        'profile': {
            'frames': frames,
            'queue_metadata': None,
            'samples': [{'elapsed_since_start_ns': 2048000, 'stack_id': 0, 'thread_id': t} for t in threads],
            'stacks': [[0, 1, 2, 3, 4, 5], [6, 7, 1, 2, 3, 4, 5], [8, 9, 10, 1, 2, 3, 4, 5]],
            'thread_metadata': {
                str(threads[0]): {'name': 'pool-2_1'},
                str(threads[1]): {'name': 'pool-1_9'},
                str(threads[2]): {'name': 'pool-1_8'},
            },
        },
        'transaction': {'active_thread_id': 140230434637568, 'id': '4c5d6e7f80914a2bb3c4d5e6f7a8b9c1',
                        'name': '/api/orders/{order_id}/', 'trace_id': '5d6e7f8091a24b3cc4d5e6f7a8b9c0d2',
                        'segment_id': '6e7f8091a2b3c4d5'},
        'transaction_metadata': {'environment': 'production', 'http.method': 'GET', 'release': 'shop-api@4.2.0',
                                 'transaction': '/api/orders/{order_id}/', 'transaction.op': 'http.server',
                                 'transaction.status': 'ok'},
        'transaction_tags': {'http.status_code': '200', 'server_name': 'shop-api-7'},
        'version': '1',
    }


def v2_python_cut():
    """A stored V2 python chunk cut down to one frame: its only stack names frames 0-6 and its
    only sample is of a thread Relay would drop (one sample). Three named threads."""
    return {
        'chunk_id': '7a8b9c0d1e2f43a4b5c6d7e8f9a0b1c2',
        'client_sdk': {'name': 'sentry.python.flask', 'version': '2.19.0'},
        'platform': 'python',
        'profile': {
            'frames': [{
                'abs_path': '/srv/shop/venv/lib/python3.12/site-packages/shop_jobs/scheduler.py',
                'module': 'shop_jobs.scheduler',
                'filename': 'shop_jobs/scheduler.py',
                'function': 'Scheduler.poll.<locals>.take_next',
                'lineno': 118,
                'in_app': False,
            }],
            'stacks': [[0, 1, 2, 3, 4, 5, 6]],
            'samples': [{'timestamp': 1718180000.3125, 'thread_id': '140230426244864', 'stack_id': 0}],
            'thread_metadata': {
                '140230443030272': {'name': 'MainThread'},
                '140230426244864': {'name': 'shop-jobs.Scheduler'},
                '140230434637568': {'name': 'shop-jobs.monitor'},
            },
        },
        'profiler_id': '8b9c0d1e2f3a44b5c6d7e8f9a0b1c2d3',
        'version': '2',
        'release': 'shop-jobs@1.8.0',
        'organization_id': 7,
        'project_id': 44,
        'timestamp': 1718180000.125,
        'received': 1718180001.5,
        'retention_days': 90,
        'environment': 'production',
    }


def v2_android():
    """A stored V2 chunk in the sample format from Android: Java frames with modules, one
    native frame, two named threads with priorities, decimal thread ids."""
    return {
        'version': '2',
        'chunk_id': '9c0d1e2f3a4b45c6d7e8f9a0b1c2d3e4',
        'profiler_id': 'a0b1c2d3e4f546a7b8c9d0e1f2a3b4c5',
        'timestamp': 1717171800.0,
        'received': 1717171801.0,
        'release': 'com.example.shop@5.0.1+12',
        'environment': 'debug',
        'organization_id': 7,
        'project_id': 45,
        'platform': 'android',
        'client_sdk': {'name': 'sentry.java.android', 'version': '7.14.0'},
        'retention_days': 90,
        'profile': {
            'samples': [
                {'timestamp': 1717171800.125, 'thread_id': '1', 'stack_id': 0},
                {'timestamp': 1717171800.1345, 'thread_id': '1', 'stack_id': 1},
                {'timestamp': 1717171800.145, 'thread_id': '1', 'stack_id': 1},
                {'timestamp': 1717171800.125, 'thread_id': '2', 'stack_id': 2},
                {'timestamp': 1717171800.145, 'thread_id': '2', 'stack_id': 2},
            ],
            'stacks': [[1, 0], [2, 1, 0], [3]],
            'frames': [
                {'function': 'main', 'module': 'android.app.ActivityThread', 'in_app': False},
                {'function': 'onCreate', 'module': 'com.example.shop.CartActivity', 'lineno': 42, 'in_app': True},
                {'function': 'computeTotal', 'module': 'com.example.shop.CartActivity', 'lineno': 60, 'in_app': True},
                {'function': '__start_thread', 'package': '/apex/com.android.runtime/lib64/bionic/libc.so',
                 'instruction_addr': '0x7f9281a000', 'platform': 'native', 'in_app': False},
            ],
            'thread_metadata': {
                '1': {'name': 'main', 'priority': 5},
                '2': {'name': 'OkHttp Dispatcher', 'priority': 10},
            },
        },
    }


def v1_node_stored():
    """A stored V1 node profile of a test run: 44 samples of one thread over 38 stacks of 303
    frames, 200 of them distinct (the SDK repeats a frame in each stack it appears in), every
    `in_app` null (the reader infers it), application code under /srv/shop/static/app/,
    packages under node_modules/, anonymous functions (a file, no function), Node internals
    (a function, no file), and frame 181 with only a line number."""
    rng = random.Random(21)
    root = '/srv/shop'

    def js(function, path, line, col):
        f = {'colno': col, 'filename': path, 'in_app': None, 'lineno': line}
        if function is not None:
            f['function'] = function
        return f

    react = root + '/node_modules/react-dom/cjs/react-dom.development.js'
    react_fns = ['renderWithHooks', 'mountIndeterminateComponent', 'beginWork', 'beginWork$1',
                 'performUnitOfWork', 'workLoopSync', 'renderRootSync', 'performSyncWorkOnRoot',
                 'flushSyncCallbacks', 'batchedUpdates$1', 'updateFunctionComponent', 'reconcileChildren',
                 'reconcileChildFibers', 'createChild', 'completeWork', 'completeUnitOfWork',
                 'commitRootImpl', 'commitRoot', 'commitLayoutEffects', 'commitMutationEffects',
                 'invokeGuardedCallbackDev', 'invokeGuardedCallback', 'dispatchEvent', 'legacyRenderSubtreeIntoContainer',
                 'updateContainer', 'scheduleUpdateOnFiber', 'mountState', 'useState', 'mountMemo',
                 'setInitialProperties', 'createElement', 'appendAllChildren']
    app_fns = [('CartView', 'components/cart/cartView.tsx'), ('CartRow', 'components/cart/cartRow.tsx'),
               ('PriceTag', 'components/priceTag.tsx'), ('formatPrice', 'utils/formatPrice.tsx'),
               ('useCart', 'stores/useCart.tsx'), ('CartStore.load', 'stores/cartStore.tsx'),
               ('CheckoutButton', 'components/checkout/checkoutButton.tsx'),
               ('totalOf', 'utils/totals.tsx'), ('taxFor', 'utils/totals.tsx'), ('discountFor', 'utils/totals.tsx'),
               ('ShippingPicker', 'components/checkout/shippingPicker.tsx'),
               ('AddressForm', 'components/checkout/addressForm.tsx'), ('validateAddress', 'utils/address.tsx'),
               ('ProductCard', 'components/catalog/productCard.tsx'), ('ProductGrid', 'components/catalog/productGrid.tsx'),
               ('useProducts', 'stores/useProducts.tsx'), ('Money.add', 'utils/money.tsx'),
               ('Money.times', 'utils/money.tsx'), ('renderCart', 'views/cart/index.spec.tsx'),
               ('renderCheckout', 'views/checkout/index.spec.tsx'), ('makeCart', 'fixtures/cart.tsx'),
               ('makeProduct', 'fixtures/product.tsx'), ('Layout', 'components/layout.tsx'),
               ('Header', 'components/header.tsx')]
    lib_fns = [('jest-circus/build/run.js', ['_runTest', '_callCircusTest', 'run', '_runTestsForDescribeBlock']),
               ('jest-circus/build/utils.js', ['callAsyncCircusFn', 'timeout', 'callAsyncCircusFn.then']),
               ('@testing-library/react/dist/pure.js', ['render', 'renderRoot', 'act']),
               ('@testing-library/dom/dist/queries/text.js', ['queryAllByText', 'getAllByText']),
               ('@testing-library/dom/dist/pretty-dom.js', ['prettyDOM', 'getUserCodeFrame']),
               ('jsdom/lib/jsdom/living/nodes/Node-impl.js', ['_insert', 'insertBefore', '_preInsert']),
               ('jsdom/lib/jsdom/living/helpers/style-rules.js', ['getCascadedPropertyValue', 'forEachMatchingSheetRuleOfElement']),
               ('nwsapi/src/nwsapi.js', ['match', 'select', 'compile']),
               ('@babel/runtime/helpers/asyncToGenerator.js', ['asyncGeneratorStep', '_next']),
               ('@sentry/core/cjs/hub.js', ['_callExtensionMethod', 'startTransaction']),
               ('@sentry/profiling-node/lib/hubextensions.js', ['wrappedStartTransaction', 'stopProfiling'])]
    internals = ['processTicksAndRejections', 'listOnTimeout', 'runMicrotasks', 'Module._compile',
                 'Module.require', 'runInContext']

    distinct = [js('startProfiling', root + '/node_modules/@sentry/profiling-node/lib/cpu_profiler.js', 37, 19)]
    for i, fn in enumerate(react_fns):
        distinct.append(js(fn, react, 14000 + 613 * i, 3 + i % 20))
    for i, (fn, path) in enumerate(app_fns):
        distinct.append(js(fn, root + '/static/app/' + path, 12 + 7 * i, 5 + i % 9))
    for path, fns in lib_fns:
        for i, fn in enumerate(fns):
            distinct.append(js(fn, root + '/node_modules/' + path, 40 + 31 * i, 10 + i))
    for i, fn in enumerate(internals):
        distinct.append({'function': fn, 'in_app': None, 'lineno': 100 + i})
    distinct.append({'function': '(garbage collector)', 'in_app': None})
    distinct.append({'function': '(program)', 'in_app': None})
    distinct.append({'function': '(root)', 'in_app': None})
    # anonymous functions: a place, no name
    files = [react] + [root + '/static/app/' + p for _, p in app_fns[:10]] + \
            [root + '/node_modules/' + p for p, _ in lib_fns]
    while len(distinct) < 199:
        path = files[len(distinct) % len(files)]
        distinct.append(js(None, path, 200 + 3 * len(distinct), 1 + len(distinct) % 40))
    distinct.insert(181, {'in_app': None, 'lineno': 81})
    assert len(distinct) == 200
    assert len({json.dumps(f, sort_keys=True) for f in distinct}) == 200

    # 38 stacks, leaf first, root last: V8's (root), a test body under jest, down into
    # react-dom and the app
    runner = [distinct.index(f) for f in distinct
              if 'jest-circus' in f.get('filename', '') and 'function' in f][:6]
    runner.append(distinct.index({'function': '(root)', 'in_app': None}))
    frames = list(distinct)
    stacks = []
    unused = list(range(1, 200))
    rng.shuffle(unused)
    for s in range(38):
        depth = rng.randint(4, 12)
        body = [unused.pop() if unused else rng.randrange(1, 200) for _ in range(depth)]
        body = [i for i in body if i not in runner] or [1]
        if s == 0:
            body = [0] + body
        stacks.append(body + runner)
    # the SDK writes a frame again in each stack it appears in: 103 repeats, to 303 frames
    while len(frames) < 303:
        s = rng.randrange(38)
        k = rng.randrange(len(stacks[s]))
        original = stacks[s][k]
        if original >= 200 or original == 181:
            continue
        frames.append(dict(frames[original]))
        stacks[s][k] = len(frames) - 1
    used = {json.dumps(frames[i], sort_keys=True) for st in stacks for i in st}
    assert len(used) == 200, 'every distinct frame is in a stack'

    elapsed = sorted(rng.sample(range(56000, 484554000, 1000), 42))
    elapsed = [55000] + elapsed + [484554000]
    samples = [{'elapsed_since_start_ns': e, 'stack_id': i if i < 38 else rng.randrange(38), 'state': '',
                'thread_id': 0} for i, e in enumerate(elapsed)]
    return {
        'debug_meta': {},
        'device': {'architecture': 'x64', 'classification': '', 'locale': 'C.UTF-8',
                   'manufacturer': 'Linux', 'model': 'x86_64'},
        'event_id': 'b7c8d9e0f1a24b3c8d4e5f60718293a4',
        'os': {'build_number': '#1 SMP PREEMPT_DYNAMIC Debian 6.1.90-1', 'name': 'linux', 'version': '6.1.0-21-amd64'},
        'organization_id': 7,
        'platform': 'node',
        'project_id': 46,
        'received': '2024-06-12T08:15:31Z',
        'release': 'shop-web@3.1.4',
        'runtime': {'name': 'node', 'version': '20.14.0'},
        'timestamp': '2024-06-12T08:15:30.250Z',
        'profile': {'frames': frames, 'queue_metadata': {}, 'samples': samples, 'stacks': stacks,
                    'thread_metadata': {'0': {'name': 'main'}}},
        'transactions': [{'active_thread_id': 0, 'id': 'c8d9e0f1a2b34c4d9e5f60718293a4b5',
                          'name': 'cart > renders the total with tax', 'relative_end_ns': 487125500,
                          'relative_start_ns': 0, 'trace_id': 'd9e0f1a2b3c44d5eaf60718293a4b5c6'}],
        'version': '1',
    }


def android_trace_chunk():
    """Android's own trace format (methods and events), which is not the sample format."""
    return {
        'chunk_id': 'b1c2d3e4f5a647b8c9d0e1f2a3b4c5d6',
        'profiler_id': 'c2d3e4f5a6b748c9d0e1f2a3b4c5d6e7',
        'debug_meta': {'images': [{'type': 'proguard', 'uuid': '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b'}]},
        'client_sdk': {'name': 'sentry.java.android', 'version': '7.14.0'},
        'duration_ns': 2500000000,
        'environment': 'debug',
        'platform': 'android',
        'release': 'com.example.shop@5.0.1+12',
        'timestamp': 1717171900.5,
        'profile': {
            'clock': 'Dual',
            'events': [
                {'action': 'Enter', 'id': 1, 'thread_id': 1, 'time': {'secs': 0, 'nanos': 1000}},
                {'action': 'Enter', 'id': 2, 'thread_id': 1, 'time': {'secs': 0, 'nanos': 5000}},
                {'action': 'Exit', 'id': 2, 'thread_id': 1, 'time': {'secs': 0, 'nanos': 9000}},
                {'action': 'Exit', 'id': 1, 'thread_id': 1, 'time': {'secs': 0, 'nanos': 12000}},
            ],
            'methods': [
                {'class_name': 'com.example.shop.CartActivity', 'name': 'onCreate', 'signature': '(Landroid/os/Bundle;)V',
                 'source_file': 'CartActivity.kt', 'source_line': 42},
                {'class_name': 'com.example.shop.CartActivity', 'name': 'computeTotal', 'signature': '()J',
                 'source_file': 'CartActivity.kt', 'source_line': 60},
            ],
            'start_time': 1717171900,
            'threads': [{'id': 1, 'name': 'main'}],
        },
    }


def legacy_cocoa():
    """The format before Sample Format V1: ids at the top, `profile` a JSON string of samples
    with their frames inline."""
    inner = {'samples': [
        {'frames': [{'instruction_addr': '0x104a1c2d4', 'symbol': 'CartView.body.getter', 'function': 'CartView.body.getter',
                     'package': '/private/var/containers/Bundle/Application/Shop.app/Shop'}],
         'relative_timestamp_ns': str(10000000 * i), 'thread_id': '259', 'queue_address': '0x00000001f3b2c500'}
        for i in range(3)
    ], 'thread_metadata': {'259': {'name': 'main', 'priority': 31}}}
    return {
        'organization_id': 7,
        'project_id': 42,
        'transaction_id': 'd3e4f5a6-b7c8-49d0-a1e2-f3a4b5c6d7e8',
        'profile_id': 'e4f5a6b7-c8d9-40e1-b2f3-a4b5c6d7e8f9',
        'received': '2022-06-08T16:07:19Z',
        'profile': json.dumps(inner, separators=(',', ':')),
        'platform': 'cocoa',
        'version_name': '2.3',
        'version_code': '41',
        'transaction_name': 'ShopUI.CartViewController',
        'duration_ns': '30000000',
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    write_json('v2-cocoa.json', v2_cocoa())
    write_json('v2-cocoa-stored.json', v2_cocoa_stored(), indent=4)
    write_json('v1-cocoa.json', v1_cocoa())
    write_json('v1-cocoa-symbolicated.json', v1_cocoa_symbolicated(), indent=4)
    write_json('v1-python-stored.json', v1_python_stored(), indent=4)
    write_json('v2-python-cut.json', v2_python_cut(), indent=4)
    write_json('v2-android.json', v2_android(), indent=4)
    write_json('v1-node-stored.json', v1_node_stored(), indent=None)
    write_json('android-trace-chunk.json', android_trace_chunk(), indent=4)
    write_json('legacy-cocoa.json', legacy_cocoa())


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""The language server on a cuTile Python file (docs/cutile.md "In the editor").

Opens a kernel file with a launch directive and a seeded race in `tilesight lsp`, and checks:
the race diagnostic comes on the store's line (compiled with the user's cuTile off the typing
path); hover on a `ct.load` line shows the partition view with this launch's tile grid and
offsets; the code lenses "Run on cpu" and "Sanitize" sit on the directive; the Run lens's
command runs the launch and reports; an edit clears the stale diagnostics at once and the idle
compile brings them back; features the user's Python language server owns answer empty.

usage: lsp_session.py TILESIGHT   (exit 77, skipped, when cuTile is not importable: set
       TILESIGHT_CUTILE_PKG to a built cuTile's pkg folder)
"""
import json
import os
import pathlib
import queue
import subprocess
import sys
import tempfile
import threading
import time

# A kernel with a launch directive and a seeded race (shared with cli_session.py, the audit and
# the VS Code test).
KERNEL = (pathlib.Path(__file__).parent / 'race.py').read_text()
LOAD_LINE, STORE_LINE, DIRECTIVE_LINE = 7, 8, 3  # 0-based

GATHER = '''import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[4096] y=f32[4096] TILE=256
@ct.kernel
def shift_left(x, y, TILE: ct.Constant[int]):
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, i + 1)
    ct.scatter(y, i, v)
'''
GATHER_LINE = 7  # 0-based


class Server:
    def __init__(self, tilesight, env):
        self.p = subprocess.Popen([tilesight, 'lsp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env)
        self.q = queue.Queue()
        self.ids = iter(range(1, 1000))
        threading.Thread(target=self._read, daemon=True).start()
        self.log = []
        threading.Thread(target=lambda: [self.log.append(x) for x in self.p.stderr], daemon=True).start()

    def _read(self):
        while True:
            header = b''
            while not header.endswith(b'\r\n\r\n'):
                c = self.p.stdout.read(1)
                if not c:
                    return
                header += c
            n = int(header.split(b'Content-Length:')[1].split(b'\r\n')[0])
            self.q.put(json.loads(self.p.stdout.read(n)))

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.p.stdin.flush()

    def notify(self, method, params):
        self.send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def request(self, method, params, timeout=120):
        i = next(self.ids)
        self.send({'jsonrpc': '2.0', 'id': i, 'method': method, 'params': params})
        return self.wait(lambda m: m.get('id') == i and 'method' not in m, timeout)

    def wait(self, pred, timeout):
        end = time.time() + timeout
        while time.time() < end:
            try:
                m = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            if 'method' in m and 'id' in m:  # a request of the server: answer it
                self.send({'jsonrpc': '2.0', 'id': m['id'], 'result': None})
            if pred(m):
                return m
        sys.stderr.write(b''.join(self.log[-30:]).decode(errors='replace'))
        raise AssertionError('timed out waiting for a message')


def diagnostics_of(uri, nonempty):
    def pred(m):
        return (m.get('method') == 'textDocument/publishDiagnostics' and m['params']['uri'] == uri
                and bool(m['params']['diagnostics']) == nonempty)
    return pred


def main():
    tilesight = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    pkg = env.get('TILESIGHT_CUTILE_PKG')
    if pkg:
        env['PYTHONPATH'] = pkg + os.pathsep + env.get('PYTHONPATH', '')
    python = env.get('TILESIGHT_PYTHON', '/usr/bin/python3')
    if subprocess.run([python, '-c', 'import cuda.tile'], env=env, capture_output=True).returncode:
        print('SKIP: cuda.tile is not importable by', python, '(set TILESIGHT_CUTILE_PKG)')
        return 77
    with tempfile.TemporaryDirectory(prefix='tilesight-lsp-cutile-') as tmp:
        path = pathlib.Path(tmp) / 'argmax.py'
        path.write_text(KERNEL)
        uri = path.as_uri()
        s = Server(tilesight, env)
        s.request('initialize', {'capabilities': {}, 'initializationOptions': {'cutileIdleMs': 300}})
        s.notify('initialized', {})
        s.notify('textDocument/didOpen', {'textDocument': {'uri': uri, 'languageId': 'python', 'version': 1,
                                                           'text': KERNEL}})
        m = s.wait(diagnostics_of(uri, True), 120)
        d = m['params']['diagnostics']
        race = [x for x in d if x.get('code') == 'race.unordered']
        assert race and race[0]['range']['start']['line'] == STORE_LINE, d
        print('race on line', STORE_LINE + 1, ':', race[0]['message'][:80])

        h = s.request('textDocument/hover', {'textDocument': {'uri': uri},
                                              'position': {'line': LOAD_LINE, 'character': 10}})
        text = h['result']['contents']['value']
        assert 'load_view_tko' in text and 'index space 4x1' in text and '(3,0)' in text, text
        assert 'element offset each tile starts at' in text and '3072' in text, text
        print('hover on the load line: view with its tile grid and offsets')
        assert s.request('textDocument/hover', {'textDocument': {'uri': uri},
                                                 'position': {'line': 0, 'character': 3}})['result'] is None

        gpath = pathlib.Path(tmp) / 'shift.py'
        gpath.write_text(GATHER)
        s.notify('textDocument/didOpen', {'textDocument': {'uri': gpath.as_uri(), 'languageId': 'python',
                                                           'version': 1, 'text': GATHER}})
        gather = None
        for _ in range(600):  # until its compile is done
            gather = s.request('textDocument/hover', {'textDocument': {'uri': gpath.as_uri()},
                                                       'position': {'line': GATHER_LINE, 'character': 10}})['result']
            if gather:
                break
            time.sleep(0.1)
        text = gather['contents']['value'] if gather else ''
        assert 'load_ptr_tko' in text and 'pointers into `%x` (4096 elements in this launch)' in text and \
            'lane k at element offset base + 1*k' in text and 'reach element offsets 1 to 4096' in text, text
        print('hover on the ct.gather line: its pointers, lane offsets and reach')

        lenses = s.request('textDocument/codeLens', {'textDocument': {'uri': uri}})['result']
        titles = sorted(x['command']['title'] for x in lenses)
        assert titles == ['Sanitize', '▶ Run on cpu'], titles
        assert all(x['range']['start']['line'] == DIRECTIVE_LINE for x in lenses), lenses
        for method in ('textDocument/semanticTokens/full', 'textDocument/completion',
                       'textDocument/documentSymbol', 'textDocument/foldingRange'):
            params = {'textDocument': {'uri': uri}}
            if method == 'textDocument/completion':
                params['position'] = {'line': 1, 'character': 0}
            assert s.request(method, params)['result'] is None, method

        run_lens = next(x for x in lenses if x['command']['title'] == 'Sanitize')
        r = s.request('workspace/executeCommand', {'command': run_lens['command']['command'],
                                                   'arguments': run_lens['command']['arguments']}, 300)
        assert 'result' in r, r
        report = r['result']['report']
        assert 'argmax_rows' in report, report
        print('Sanitize lens ran:', report.splitlines()[0])

        # An edit clears the stale result at once; the idle compile brings it back.
        s.notify('textDocument/didChange', {'textDocument': {'uri': uri, 'version': 2}, 'contentChanges': [
            {'range': {'start': {'line': 9, 'character': 0}, 'end': {'line': 9, 'character': 0}},
             'text': '\n'}]})
        s.wait(diagnostics_of(uri, False), 30)
        s.wait(diagnostics_of(uri, True), 120)
        print('edit: cleared, then compiled again')
        s.request('shutdown', None)
        s.notify('exit', None)
        s.p.wait(timeout=30)
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())

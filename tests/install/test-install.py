#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`meson install` into a DESTDIR, then what a user gets from it.

The man pages render without a warning and name every command, option and
exit status the installed binaries' --help name (read here with a regex of
its own, not with docs/fc-help.py, which wrote the pages); `man flamecast-cli`
finds its page under the DESTDIR's man path; the bash, zsh and fish
completions load in their shells and complete commands, options, option
values, files and the command after `record --`; the German catalog is
installed, holds the CLI's, core's and the app's messages with their plural
forms, the desktop file and metainfo carry its text, and the installed CLI,
run from the DESTDIR, speaks German. TAP output.
"""

import gettext

import os
import re
import shlex
import subprocess
import sys
import tempfile

BUILD = os.environ['FC_BUILD_ROOT']
MESON = os.environ['FC_MESON']
DESTDIR = tempfile.mkdtemp(prefix='fc-install-')
ROOT = DESTDIR + os.environ['FC_PREFIX']
BIN = os.path.join(ROOT, os.environ['FC_BINDIR'])
MAN = os.path.join(ROOT, os.environ['FC_MANDIR'])
DATA = os.path.join(ROOT, os.environ['FC_DATADIR'])
APP = os.environ.get('FC_WITH_APP') == '1'
HELPER = os.environ.get('FC_WITH_HELPER') == '1'

CLI = os.path.join(BIN, 'flamecast-cli')
BASH = os.path.join(DATA, 'bash-completion', 'completions', 'flamecast-cli')
ZSH_DIR = os.path.join(DATA, 'zsh', 'site-functions')
FISH = os.path.join(DATA, 'fish', 'vendor_completions.d', 'flamecast-cli.fish')
MO = os.path.join(DATA, 'locale', 'de', 'LC_MESSAGES', 'flamecast.mo')
ENV = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='', MANWIDTH='100', MANPAGER='cat', PAGER='cat',
           ASAN_OPTIONS=(os.environ.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':'))
# the files the completion tests complete
WORK = tempfile.mkdtemp(prefix='fc-install-work-')
open(os.path.join(WORK, 'chunk-001.json'), 'w').close()
os.mkdir(os.path.join(WORK, 'out'))


def run(argv, cwd=None, check=True, **kwargs):
    done = subprocess.run(argv, env=kwargs.pop('env', ENV), cwd=cwd, capture_output=True, text=True,
                          timeout=120, **kwargs)
    if check and done.returncode != 0:
        raise AssertionError(f'{shlex.join(argv)}: exit status {done.returncode}\n{done.stdout}{done.stderr}')
    return done


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# -- what the installed binaries say of themselves ----------------------------

def commands():
    """flamecast-cli's commands and their summaries, as its --help lists them."""
    listing = run([CLI, '--help']).stdout.split('Commands:', 1)[1]
    return dict(re.findall(r'^  (\w[\w-]*)\s+(.*\S)', listing, re.M))


def long_options(help_text):
    return re.findall(r'^\s+(?:-\w, )?(--[\w-]+)', help_text, re.M)


def rendered(argv):
    """The text man prints, its hyphens and spaces plain; nothing on stderr."""
    done = run(argv)
    expect(done.stderr == '', f'{shlex.join(argv)} warned:\n{done.stderr}')
    text = re.sub(r'.\x08', '', done.stdout)
    for fancy, plain in (('\u2010', '-'), ('\u2212', '-'), ('\u2019', "'"), ('\u2018', '`')):
        text = text.replace(fancy, plain)
    return ' '.join(text.split())


# -- the tests ------------------------------------------------------------------

def test_installed_files():
    expected = [CLI, os.path.join(MAN, 'man1', 'flamecast-cli.1'), BASH,
                os.path.join(ZSH_DIR, '_flamecast-cli'), FISH, MO]
    if APP:
        expected += [os.path.join(BIN, 'flamecast'), os.path.join(MAN, 'man1', 'flamecast.1'),
                     os.path.join(DATA, 'applications', 'io.github.flamecast.Flamecast.desktop'),
                     os.path.join(DATA, 'metainfo', 'io.github.flamecast.Flamecast.metainfo.xml'),
                     os.path.join(DATA, 'glib-2.0', 'schemas', 'io.github.flamecast.Flamecast.gschema.xml'),
                     os.path.join(DATA, 'icons', 'hicolor', 'scalable', 'apps', 'io.github.flamecast.Flamecast.svg')]
    if HELPER:
        # flamecast-helper: started by the system bus, authorised by polkit
        expected += [os.path.join(ROOT, os.environ['FC_LIBEXECDIR'], 'flamecast-helper'),
                     os.path.join(DATA, 'dbus-1', 'system-services', 'io.github.flamecast.Helper.service'),
                     os.path.join(DATA, 'dbus-1', 'system.d', 'io.github.flamecast.Helper.conf'),
                     os.path.join(DATA, 'polkit-1', 'actions', 'io.github.flamecast.Flamecast.policy')]
    missing = [path[len(DESTDIR):] for path in expected if not os.path.isfile(path)]
    expect(not missing, f'not installed: {missing}')


def test_cli_man_page_names_every_option():
    page = rendered(['man', '--warnings', '-l', os.path.join(MAN, 'man1', 'flamecast-cli.1')])
    names = commands()
    expect(len(names) >= 7, f'flamecast-cli --help lists {names}')
    exit_section = page.split('EXIT STATUS', 1)[1].split('ENVIRONMENT', 1)[0]
    # each command's heading in COMMANDS: its name, then its summary as --help lists it
    headings = [page.index(f' {name} {summary}.', page.index('COMMANDS')) for name, summary in names.items()]
    sections = dict(zip(names, (page[a:b] for a, b in zip(headings, headings[1:] + [page.index('EXIT STATUS')]))))
    for name in names:
        help_text = run([CLI, name, '--help']).stdout
        expect('Exit status:' in help_text, f'flamecast-cli {name} --help says nothing of its exit status')
        expect(f'flamecast-cli {name} [OPTION...]' in page, f'no synopsis of {name} in the man page')
        expect(re.search(rf'\b{name}\b', exit_section), f'no exit status of {name} in the man page')
        status = ' '.join(help_text.split('Exit status:', 1)[1].split('\n\n', 1)[0].split())
        expect(status in exit_section, f'the exit status of {name} differs from its --help: {status!r}')
        for option in long_options(help_text):
            expect(option in sections[name], f'{name} {option} is not under {name} in the man page')


def test_man_finds_the_page_in_the_destdir():
    page = rendered(['man', '--warnings', '-M', MAN, 'flamecast-cli'])
    expect(page.startswith('FLAMECAST-CLI(1)'), f'man flamecast-cli printed {page[:200]!r}')
    expect('SYNOPSIS' in page and 'EXIT STATUS' in page and 'ENVIRONMENT' in page, 'sections missing')


def test_app_man_page():
    app = os.path.join(BIN, 'flamecast')
    help_text = run([app, '--help']).stdout
    page = rendered(['man', '--warnings', '-l', os.path.join(MAN, 'man1', 'flamecast.1')])
    for option in long_options(help_text):
        expect(option in page, f'flamecast {option} is not in its man page')
    status = ' '.join(help_text.split('Exit status:', 1)[1].split())
    expect(status in page, f'the exit status in flamecast --help is not in its man page: {status!r}')
    expect('[FILE...] [-- COMMAND [ARGS...]]' in page, 'no usage line in flamecast(1)')


def bash_complete(line):
    words = line.split() + ([''] if line.endswith(' ') else [])
    script = f'''
source /usr/share/bash-completion/bash_completion
source {shlex.quote(BASH)}
COMP_LINE={shlex.quote(line)}
COMP_POINT=${{#COMP_LINE}}
COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})
COMP_CWORD={len(words) - 1}
_flamecast_cli flamecast-cli "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
'''
    return run(['bash', '--norc', '--noprofile', '-c', script], cwd=WORK).stdout.split()


def test_bash_completion():
    done = run(['bash', '--norc', '--noprofile', '-c', f'source {shlex.quote(BASH)}; complete -p flamecast-cli'])
    expect(done.stdout.strip() == 'complete -F _flamecast_cli flamecast-cli', done.stdout)
    cases = [
        ('flamecast-cli ', set(commands()) | {'--help', '--version'}, True),
        ('flamecast-cli rec', {'record'}, True),
        ('flamecast-cli record --mo', {'--mode='}, True),
        ('flamecast-cli record --mode ', {'wall', 'cpu'}, True),
        ('flamecast-cli record -f ', {'v2', 'v1'}, True),
        ('flamecast-cli convert --to ', {'v2', 'v1', 'envelope', 'otlp', 'otlp-json', 'pprof', 'speedscope',
                                         'collapsed'}, True),
        ('flamecast-cli record -o ', {'out'}, True),
        ('flamecast-cli inspect ', {'chunk-001.json', 'out'}, True),
        ('flamecast-cli validate --strict chunk', {'chunk-001.json'}, True),
        ('flamecast-cli record --duration 3 -- bas', {'bash'}, False),
        ('flamecast-cli record -- bash --norc --noprof', {'--noprofile'}, False),
        ('flamecast-cli doctor ', set(), True),
        ('flamecast-cli send --dsn ', set(), True),
    ]
    for line, want, exactly in cases:
        got = set(bash_complete(line))
        expect(got == want if exactly else want <= got, f'{line!r} completed to {sorted(got)[:20]}, not {sorted(want)}')
    pids = bash_complete('flamecast-cli record --pid ')
    expect(str(os.getpid()) in pids, f'--pid completed to {pids[:10]}..., without this test\'s pid')


def fish_complete(line):
    script = f'source {shlex.quote(FISH)}; complete -C {shlex.quote(line)}'
    out = run(['fish', '--no-config', '-c', script], cwd=WORK).stdout
    return [entry.split('\t')[0] for entry in out.splitlines()]


def test_fish_completion():
    run(['fish', '--no-config', '--no-execute', FISH])
    cases = [
        ('flamecast-cli rec', {'record'}, True),
        ('flamecast-cli record --mo', {'--mode'}, True),
        ('flamecast-cli record --mode ', {'wall', 'cpu'}, True),
        ('flamecast-cli convert --to ', {'v2', 'v1', 'envelope', 'otlp', 'otlp-json', 'pprof', 'speedscope',
                                         'collapsed'}, True),
        ('flamecast-cli inspect ', {'chunk-001.json', 'out/'}, True),
        ('flamecast-cli record -o ', {'out/'}, True),
        ('flamecast-cli record -- bas', {'bash'}, False),
        ('flamecast-cli doctor ', set(), True),
        ('flamecast-cli send --dsn ', set(), True),
    ]
    for line, want, exactly in cases:
        got = set(fish_complete(line))
        expect(got == want if exactly else want <= got, f'{line!r} completed to {sorted(got)[:20]}, not {sorted(want)}')


# An interactive zsh on a pseudo-terminal (zpty) with compinit and the
# installed completion: the line, Tab, then Ctrl-X to end. compadd prints
# what it adds that matches the word before the cursor. The marks are split
# in the commands ("<do""ne>"), so that the terminal's echo of a command is
# never taken for its output.
ZSH_COMPLETE = r'''
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=''; RPROMPT=''; unsetopt zle_bracketed_paste"
zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd () { local -a hits; builtin compadd -O hits "$@"; print -rl -- "" "<h""it>"${^hits}; builtin compadd "$@" }'
zpty -w z 'fc-done () { print -l "" "<do""ne>"; exit }; zle -N fc-done; bindkey "^I" complete-word; bindkey "^X" fc-done'
zpty -n -w z "$2"$'\t'$'\x18'
while zpty -r z line; do
  [[ $line == '<done>'* ]] && break
  [[ $line == '<hit>'* ]] && print -r -- ${${line#<hit>}%$'\r'}
done
zpty -d z
'''


def zsh_complete(line):
    return run(['zsh', '-f', '-c', ZSH_COMPLETE, 'zsh', ZSH_DIR, line], cwd=WORK).stdout.split()


def test_zsh_completion():
    script = os.path.join(ZSH_DIR, '_flamecast-cli')
    run(['zsh', '-n', script])
    # compinit reads the #compdef line of every file on $fpath
    done = run(['zsh', '-f', '-c', f'fpath=({shlex.quote(ZSH_DIR)} $fpath); autoload -Uz compinit; '
                'compinit -u -D; print -r -- $_comps[flamecast-cli]'], cwd=WORK)
    expect(done.stdout.strip() == '_flamecast-cli', f'compinit mapped flamecast-cli to {done.stdout!r}')
    cases = [
        ('flamecast-cli ', set(commands()), True),
        ('flamecast-cli rec', {'record'}, True),
        ('flamecast-cli record --mo', {'--mode'}, True),
        ('flamecast-cli record --mode ', {'wall', 'cpu'}, True),
        ('flamecast-cli record --mode=c', {'cpu'}, True),
        ('flamecast-cli convert --to ', {'v2', 'v1', 'envelope', 'otlp', 'otlp-json', 'pprof', 'speedscope',
                                         'collapsed'}, True),
        ('flamecast-cli inspect ', {'chunk-001.json', 'out'}, True),
        ('flamecast-cli record -o ', {'out'}, True),
        ('flamecast-cli record --duration 3 -- bas', {'bash'}, False),
        ('flamecast-cli record -- bash --norc --noprof', {'--noprofile'}, False),
        ('flamecast-cli send --dsn ', set(), True),
    ]
    for line, want, exactly in cases:
        got = set(zsh_complete(line))
        expect(got == want if exactly else want <= got, f'{line!r} completed to {sorted(got)[:20]}, not {sorted(want)}')


def test_german():
    with open(MO, 'rb') as mo:
        catalog = gettext.GNUTranslations(mo)
    plural_forms = catalog.info().get('plural-forms', '')
    expect(plural_forms.replace(' ', '') == 'nplurals=2;plural=(n!=1);', f'Plural-Forms: {plural_forms!r}')
    cases = [
        ('Commands:', 'Befehle:'),  # the CLI
        ('No DSN given (expected https://KEY@HOST/PROJECT_ID)',  # core
         'Kein DSN angegeben (erwartet: https://SCHLÜSSEL@HOST/PROJEKT_ID)'),
    ]
    if APP:
        cases.append(('Call Tree', 'Aufrufbaum'))
    for english, german in cases:
        expect(catalog.gettext(english) == german, f'{english!r} is {catalog.gettext(english)!r} in the catalog')
    for n, german in ((1, '%u Warnung'), (2, '%u Warnungen'), (0, '%u Warnungen')):
        got = catalog.ngettext('%u warning', '%u warnings', n)
        expect(got == german, f'ngettext(%u warning, {n}) is {got!r}, not {german!r}')
    # the installed binary finds the catalog installed beside it (fc_locale_dir())
    done = run([CLI, '--help'], env=dict(ENV, LANGUAGE='de'))
    expect('Befehle:' in done.stdout and 'Commands:' not in done.stdout, f'in German:\n{done.stdout}')
    done = run([CLI, '--help'])
    expect('Commands:' in done.stdout, f'without LANGUAGE:\n{done.stdout}')
    if APP:
        with open(os.path.join(DATA, 'applications', 'io.github.flamecast.Flamecast.desktop'), encoding='utf-8') as f:
            desktop = f.read()
        expect('Comment[de]=Sentry-Profile als Flammendiagramme' in desktop, f'no German comment:\n{desktop}')
        with open(os.path.join(DATA, 'metainfo', 'io.github.flamecast.Flamecast.metainfo.xml'), encoding='utf-8') as f:
            metainfo = f.read()
        expect('<summary xml:lang="de">Sentry-Profile erkunden und aufzeichnen</summary>' in metainfo,
               'no German summary in the metainfo')


TESTS = [test_installed_files, test_cli_man_page_names_every_option, test_man_finds_the_page_in_the_destdir,
         test_bash_completion, test_fish_completion, test_zsh_completion, test_german] + ([test_app_man_page] if APP else [])


def main():
    print(f'1..{len(TESTS)}')
    done = subprocess.run([MESON, 'install', '-C', BUILD, '--no-rebuild', '--quiet', '--destdir', DESTDIR],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        print(f'Bail out! meson install --destdir failed: {done.stdout}{done.stderr}')
        return 1
    failed = 0
    for number, test in enumerate(TESTS, 1):
        name = test.__name__[len('test_'):].replace('_', '-')
        try:
            test()
        except (AssertionError, subprocess.TimeoutExpired) as error:
            failed += 1
            print(f'not ok {number} - /install/{name}')
            print('\n'.join('# ' + line for line in str(error).splitlines()))
            continue
        print(f'ok {number} - /install/{name}')
    subprocess.run(['rm', '-rf', DESTDIR, WORK])
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

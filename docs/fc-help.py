#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Man pages and shell completions made from a program's own --help.

    fc-help.py man TEMPLATE OUTPUT VERSION PROGRAM [--commands]
    fc-help.py bash|zsh|fish OUTPUT PROGRAM

The build runs the program it just linked, so that the man pages and the
completions list every command and option the binary has, whoever added
them: nothing here names an option. --commands reads a program that prints
its commands under "Commands:" (flamecast-cli) and then each command's
GOption --help; otherwise the program's own GOption --help is the page.

A man page template holds the prose; @SYNOPSIS@, @DESCRIPTION@, @OPTIONS@,
@COMMANDS@, @EXIT_STATUS@ and @VERSION@ lines are replaced. The exit status
comes from the "Exit status:" paragraph of each --help.
"""

import os
import re
import subprocess
import sys

EXIT_STATUS = 'Exit status:'


class Option:
    def __init__(self, short, long, arg, description):
        self.short = short
        self.long = long
        self.arg = arg
        self.description = description

    def names(self):
        return (['-' + self.short] if self.short else []) + ['--' + self.long]

    def value_kind(self):
        """What completes the option's value: None (no value), ('choices', [...]),
        ('pid',), ('directory',), ('file',) or ('text',)."""
        if self.arg is None:
            return None
        if '|' in self.arg:
            return ('choices', self.arg.split('|'))
        if self.arg == 'PID':
            return ('pid',)
        if self.arg in ('DIR', 'DIRECTORY'):
            return ('directory',)
        if self.arg in ('FILE', 'PATH', 'OUT', 'IN') or self.arg.endswith('FILE'):
            return ('file',)
        # "Target: v2, v1, envelope or collapsed"
        m = re.match(r'^[^:]*:\s*((?:[\w.-]+, )*[\w.-]+ or [\w.-]+)$', self.description)
        if m:
            return ('choices', re.split(r', | or ', m.group(1)))
        return ('text',)


class Command:
    """One GOption --help: the program itself or one of flamecast-cli's commands."""

    def __init__(self, name, summary):
        self.name = name          # '' for the program itself
        self.summary = summary    # one line, from the command list or the usage line
        self.prog = ''
        self.parameters = ''
        self.text = []            # paragraphs: the context's summary and description
        self.exit_status = None
        self.options = []

    def positional(self):
        """What the words that are not options are: 'command' after --, 'file' or None."""
        if '-- COMMAND' in self.parameters:
            return 'command'
        if re.search(r'\b(FILE|IN|BEFORE|AFTER)\b', self.parameters):
            return 'file'
        return None


def run_help(program, *args):
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='', NO_AT_BRIDGE='1')
    # the help is the point, not the sanitizers' verdict on exiting from inside GOption
    env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
    done = subprocess.run([program, *args, '--help'], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f'{program} {" ".join(args)} --help: exit status {done.returncode}\n{done.stderr}')
    return done.stdout


def paragraphs(lines):
    out, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.rstrip())
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


OPTION_RE = re.compile(r'^  (?:-(\w), )?--([\w-]+)(?:\[?=([^\s\]]+)\]?)?(?:\s{2,}(.*))?$')


def parse_goption(command, text):
    """GOption's layout: Usage:, the usage line, the summary, groups of
    options under a heading each, the description."""
    lines = text.splitlines()
    if not lines or lines[0] != 'Usage:':
        raise SystemExit(f'not GOption help: {text[:80]!r}')
    m = re.match(r'^\s*(.*?) \[OPTION(?:…|\.\.\.)\]\s*(.*)$', lines[1])
    if not m:
        raise SystemExit(f'no usage line in {lines[1]!r}')
    command.prog = m.group(1)
    parameters = m.group(2)
    if ' - ' in parameters or parameters.startswith('- '):
        parameters, summary = re.split(r'(?:^| )- ', parameters, maxsplit=1)
        if not command.summary:
            command.summary = summary[:1].upper() + summary[1:]
    command.parameters = parameters.strip()

    text_lines = []
    i = 2
    while i < len(lines):
        line = lines[i]
        heading = line and not line[0].isspace() and i + 1 < len(lines) and lines[i + 1].startswith('  -')
        if heading:
            i += 1
            while i < len(lines) and lines[i].startswith('  '):
                om = OPTION_RE.match(lines[i])
                if om:
                    command.options.append(Option(om.group(1), om.group(2), om.group(3), (om.group(4) or '').strip()))
                elif command.options:
                    # a description that spans lines
                    command.options[-1].description += ' ' + lines[i].strip()
                i += 1
            text_lines.append('')
            continue
        text_lines.append(line)
        i += 1

    for para in paragraphs(text_lines):
        joined = '\n'.join(para)
        at = joined.find(EXIT_STATUS)
        if at >= 0:
            command.exit_status = ' '.join(joined[at + len(EXIT_STATUS):].split())
            joined = joined[:at].rstrip()
        if joined:
            command.text.append(joined.split('\n'))
    return command


def read_program(program, with_commands):
    """The program's commands (or the program itself, alone) with their options."""
    if not with_commands:
        return [parse_goption(Command('', ''), run_help(program))]
    top = run_help(program)
    commands = []
    listing = False
    for line in top.splitlines():
        if line == 'Commands:':
            listing = True
        elif listing and line.startswith('  '):
            name, summary = line.strip().split(None, 1)
            commands.append(Command(name, summary.strip()))
        elif listing:
            listing = False
    if not commands:
        raise SystemExit(f'{program} --help lists no commands')
    for command in commands:
        parse_goption(command, run_help(program, command.name))
    return commands


def top_options(program):
    """flamecast-cli's own options: those its usage lines name (--help, --version)."""
    return sorted(set(re.findall(r'(?<![\w-])(--?[a-z][\w-]*)', run_help(program).split('Commands:')[0])))


# -- man ---------------------------------------------------------------------

def roff(text):
    """Escape text for one roff line: backslashes, hyphens (so that options
    paste as typed), quotes, anything not ASCII, a leading dot."""
    text = text.replace('\\', '\\e').replace('-', '\\-').replace('"', '\\(dq')
    text = ''.join(c if ord(c) < 128 else '\\[u%04X]' % ord(c) for c in text)
    if text.startswith(('.', "'")):
        text = '\\&' + text
    return text


def roff_paragraphs(paras):
    """A paragraph whose lines are indented is a list ("v2: ..." then
    indented lines): each item its own paragraph. Others flow."""
    out = []
    for para in paras:
        items = [[]]
        listed = any(line.startswith(' ') for line in para)
        for line in para:
            if listed and not line.startswith(' ') and items[-1] and items[-1][-1].rstrip().endswith(('.', ':')):
                items.append([])
            items[-1].append(line.strip())
        for item in items:
            out += ['.PP', roff(' '.join(item))]
    return out


def roff_option(option):
    names = ', '.join('\\fB' + roff(name) + '\\fR' for name in option.names())
    if option.arg:
        names += '=\\fI' + roff(option.arg) + '\\fR'
    return ['.TP', names, roff(option.description)]


def man_synopsis(program_name, commands, with_commands, extra):
    """One usage line a command (wrapped lines indented), no space between."""
    out = ['.PD 0']
    for command in commands:
        words = [program_name] + ([command.name] if with_commands else [])
        out += ['.HP', ' '.join(['\\fB' + roff(w) + '\\fR' for w in words] +
                                ['[\\fIOPTION\\fR...]', roff(command.parameters)]).rstrip()]
    for line in extra:
        out += ['.HP', roff(line)]
    return out + ['.PD']


def man_page(template, version, program, with_commands):
    commands = read_program(program, with_commands)
    program_name = os.path.basename(program)
    missing = [c.name or program_name for c in commands if c.exit_status is None]
    parts = {
        'VERSION': None,
        'SYNOPSIS': man_synopsis(program_name, commands, with_commands,
                                 [program_name + ' ' + ' | '.join(top_options(program))] if with_commands else []),
        'DESCRIPTION': [] if with_commands else roff_paragraphs(commands[0].text),
        'OPTIONS': [] if with_commands else sum((roff_option(o) for o in commands[0].options), []),
        'COMMANDS': [],
        'EXIT_STATUS': [],
    }
    for command in commands if with_commands else []:
        parts['COMMANDS'] += ['.SS ' + roff(command.name), '.PP', roff(command.summary.rstrip('.') + '.')]
        parts['COMMANDS'] += roff_paragraphs(command.text)
        for option in command.options:
            parts['COMMANDS'] += roff_option(option)
    for command in commands:
        status = command.exit_status or 'not documented by --help.'
        if with_commands:
            parts['EXIT_STATUS'] += ['.TP', '\\fB' + roff(command.name) + '\\fR', roff(status)]
        else:
            parts['EXIT_STATUS'] += ['.PP', roff(status)]
    if missing:
        print(f'fc-help.py: --help of {", ".join(missing)} says nothing of the exit status', file=sys.stderr)

    out = []
    for line in template.splitlines():
        key = line.strip('@')
        if line.startswith('@') and line.endswith('@') and key in parts and parts[key] is not None:
            out += parts[key]
        else:
            out.append(line.replace('@VERSION@', version))
    return '\n'.join(out) + '\n'


# -- completions -------------------------------------------------------------

def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def bash_completion(program):
    commands = read_program(program, True)
    name = os.path.basename(program)
    function = '_' + re.sub(r'\W', '_', name)
    out = [
        '# SPDX-License-Identifier: GPL-3.0-or-later',
        f'# bash completion for {name}, made from its --help by docs/fc-help.py',
        '',
        f'{function} ()',
        '{',
        '  local cur prev words cword split',
        '  _init_completion -s || return',
        '',
        '  local i command= first=0',
        '  for ((i = 1; i < cword; i++)); do',
        '    if [[ ${words[i]} != -* ]]; then',
        '      command=${words[i]} first=$((i + 1))',
        '      break',
        '    fi',
        '  done',
        '  if [[ -z $command ]]; then',
        '    COMPREPLY=($(compgen -W %s -- "$cur"))' % shell_quote(
            ' '.join([c.name for c in commands] + top_options(program))),
        '    return',
        '  fi',
        '',
        '  case $command in',
    ]
    for command in commands:
        out.append(f'    {command.name})')
        if command.positional() == 'command':
            out += [
                '      for ((i = first; i < cword; i++)); do',
                '        if [[ ${words[i]} == -- ]]; then',
                '          _command_offset $((i + 1))',
                '          return',
                '        fi',
                '      done',
            ]
        cases = {}
        for option in command.options:
            kind = option.value_kind()
            if kind is None:
                continue
            if kind[0] == 'choices':
                action = 'COMPREPLY=($(compgen -W %s -- "$cur"))' % shell_quote(' '.join(kind[1]))
            else:
                action = {'pid': '_pids', 'directory': '_filedir -d', 'file': '_filedir', 'text': ''}[kind[0]]
            cases.setdefault(action, []).extend(option.names())
        if cases:
            out.append('      case $prev in')
            for action, names in cases.items():
                out += [f'        {"|".join(names)})'] + ([f'          {action}'] if action else []) + \
                       ['          return', '          ;;']
            out.append('      esac')
        words = []
        for option in command.options:
            words += ['-' + option.short] if option.short else []
            words.append('--' + option.long + ('=' if option.arg else ''))
        out += [
            '      $split && return',
            '      if [[ $cur == -* ]]; then',
            '        COMPREPLY=($(compgen -W %s -- "$cur"))' % shell_quote(' '.join(words)),
            '        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace',
            '        return',
            '      fi',
        ]
        if command.positional() == 'file':
            out.append('      _filedir')
        elif command.positional() == 'command':
            out.append('      COMPREPLY=($(compgen -W -- -- "$cur"))')
        out.append('      ;;')
    out += ['  esac', '}', '', f'complete -F {function} {name}', '']
    return '\n'.join(out)


def zsh_text(text):
    return text.replace('\\', '\\\\').replace("'", "'\\''").replace('[', '\\[').replace(']', '\\]').replace(':', '\\:')


def zsh_completion(program):
    commands = read_program(program, True)
    name = os.path.basename(program)
    out = [
        f'#compdef {name}',
        '# SPDX-License-Identifier: GPL-3.0-or-later',
        f'# zsh completion for {name}, made from its --help by docs/fc-help.py',
        '',
        f'_{name} () {{',
        '  local curcontext=$curcontext state state_descr line ret=1',
        '  typeset -A opt_args',
        '',
        '  _arguments -C \\',
    ]
    for option in top_options(program):
        out.append(f"    '(- *){option}' \\")
    out += [
        "    '1:command:->command' \\",
        "    '*::argument:->argument' && ret=0",
        '',
        '  case $state in',
        '    command)',
        '      local -a commands=(',
    ]
    for command in commands:
        out.append("        '%s:%s'" % (command.name, zsh_text(command.summary)))
    out += [
        '      )',
        "      _describe -t commands command commands && ret=0",
        '      ;;',
        '    argument)',
        f'      curcontext=${{curcontext%:*:*}}:{name}-$words[1]:',
        '      case $words[1] in',
    ]
    for command in commands:
        out += [f'        {command.name})', '          _arguments -s -S \\']
        for option in command.options:
            names = option.names()
            exclusive = '(- *)' if option.long == 'help' else ('(' + ' '.join(names) + ')' if len(names) > 1 else '')
            kind = option.value_kind()
            # a value: -pVALUE or -p VALUE, --pid=VALUE or --pid VALUE
            spec_names = names if kind is None else [n + ('=' if n.startswith('--') else '+') for n in names]
            if kind is None:
                value = ''
            elif kind[0] == 'choices':
                value = ':%s:(%s)' % (zsh_text(option.arg.lower()), ' '.join(kind[1]))
            else:
                value = ':%s:%s' % (zsh_text(option.arg.lower()),
                                    {'pid': '_pids', 'directory': '_files -/', 'file': '_files', 'text': ' '}[kind[0]])
            description = '[' + zsh_text(option.description) + ']'
            if len(spec_names) > 1:
                out.append("            '%s'{%s}'%s%s' \\" % (exclusive, ','.join(spec_names), description, value))
            else:
                out.append("            '%s%s%s%s' \\" % (exclusive, spec_names[0], description, value))
        positional = command.positional()
        if positional == 'file':
            out.append("            '*:file:_files' \\")
        elif positional == 'command':
            # _arguments leaves the -- in front of the command line
            out.append("            '*::command:{ [[ $words[1] == -- ]] && { shift words; (( CURRENT-- )) }; _normal }' \\")
        out[-1] = out[-1][:-2] + ' && ret=0'
        out.append('          ;;')
    out += ['      esac', '      ;;', '  esac', '  return ret', '}', '', f'_{name} "$@"', '']
    return '\n'.join(out)


def fish_text(text):
    return "'" + text.replace('\\', '\\\\').replace("'", "\\'") + "'"


def fish_completion(program):
    commands = read_program(program, True)
    name = os.path.basename(program)
    prefix = '__' + re.sub(r'\W', '_', name)
    names = ' '.join(c.name for c in commands)
    out = [
        '# SPDX-License-Identifier: GPL-3.0-or-later',
        f'# fish completion for {name}, made from its --help by docs/fc-help.py',
        '',
        '# the words after "record ... --" are a command line of their own',
        f'function {prefix}_after_dashdash',
        '    contains -- -- (commandline -opc)',
        'end',
        f'function {prefix}_command',
        '    set -l words (commandline -opc)',
        '    set -l at (contains -i -- -- $words)',
        '    complete -C (string join -- " " (string escape -- $words[(math $at + 1)..-1]) (commandline -ct))',
        'end',
        '',
        f'complete -c {name} -f',
        f"complete -c {name} -n 'not __fish_seen_subcommand_from {names}' -l help -s h -d 'Show help'",
    ]
    if '--version' in top_options(program):
        out.append(f"complete -c {name} -n 'not __fish_seen_subcommand_from {names}' -l version -d 'Print the version'")
    for command in commands:
        out.append(f"complete -c {name} -n 'not __fish_seen_subcommand_from {names}' -a {command.name} "
                   f"-d {fish_text(command.summary)}")
    for command in commands:
        condition = f'__fish_seen_subcommand_from {command.name}'
        if command.positional() == 'command':
            out.append(f"complete -c {name} -n '{condition}; and {prefix}_after_dashdash' -x -a '({prefix}_command)'")
            condition += f'; and not {prefix}_after_dashdash'
        for option in command.options:
            words = [f'complete -c {name} -n {fish_text(condition)}']
            if option.short:
                words.append('-s ' + option.short)
            words.append('-l ' + option.long)
            kind = option.value_kind()
            if kind is None:
                pass
            elif kind[0] == 'choices':
                words.append('-x -a ' + fish_text(' '.join(kind[1])))
            elif kind[0] == 'pid':
                words.append("-x -a '(__fish_complete_pids)'")
            elif kind[0] == 'directory':
                words.append("-x -a '(__fish_complete_directories (commandline -ct))'")
            elif kind[0] == 'file':
                words.append('-r -F')
            else:
                words.append('-x')
            words.append('-d ' + fish_text(option.description))
            out.append(' '.join(words))
        if command.positional() == 'file':
            out.append(f'complete -c {name} -n {fish_text(condition)} -F')
    out.append('')
    return '\n'.join(out)


def main(argv):
    if len(argv) >= 6 and argv[1] == 'man':
        with open(argv[2], encoding='utf-8') as f:
            template = f.read()
        text = man_page(template, argv[4], argv[5], '--commands' in argv[6:])
        output = argv[3]
    elif len(argv) == 4 and argv[1] in ('bash', 'zsh', 'fish'):
        text = {'bash': bash_completion, 'zsh': zsh_completion, 'fish': fish_completion}[argv[1]](argv[3])
        output = argv[2]
    else:
        sys.exit(__doc__)
    with open(output, 'w', encoding='utf-8') as f:
        f.write(text)


if __name__ == '__main__':
    main(sys.argv)


using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'llm' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'llm'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'llm' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Regex or literal text search over files and directories (ripgrep''s engine)')
            [CompletionResult]::new('ast', 'ast', [CompletionResultType]::ParameterValue, 'Tree-sitter query search over the files of 13 languages; `--tree` prints a file''s syntax tree')
            [CompletionResult]::new('find', 'find', [CompletionResultType]::ParameterValue, 'Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`)')
            [CompletionResult]::new('transform', 'transform', [CompletionResultType]::ParameterValue, 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Replace, delete, insert beside, or rename a named symbol (function, method, class…)')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Create or replace a file only when it is valid: tree-sitter syntax, then optionally the language''s checker (--check) and a language server (--lsp)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of every signature with bodies elided')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing change (add, delete, move, edit, patch symbols)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'The journal of mutations, newest first: ids, commands, files with before/after checksums, undone or recovered after a crash; `--prune` empties it')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Put every file of a journaled operation back as it was before (default: the newest operation not yet undone), all or nothing, refused when a file changed since')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packagers and this repository)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llm;search' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`')
            [CompletionResult]::new('--regexp', '--regexp', [CompletionResultType]::ParameterName, 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read patterns from FILE, one per line (repeatable; `-` is stdin). An empty file matches nothing')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read patterns from FILE, one per line (repeatable; `-` is stdin). An empty file matches nothing')
            [CompletionResult]::new('--engine', '--engine', [CompletionResultType]::ParameterName, 'The regex engine: `default` (Rust''s regex), `pcre2` (as -P), or `auto` (Rust''s, and PCRE2 for a pattern it cannot compile: look-around, backreferences). The last of --engine, -P and --no-pcre2 wins')
            [CompletionResult]::new('--regex-size-limit', '--regex-size-limit', [CompletionResultType]::ParameterName, 'The size limit of the compiled regex (bytes, or a K, M or G suffix), as ripgrep')
            [CompletionResult]::new('--dfa-size-limit', '--dfa-size-limit', [CompletionResultType]::ParameterName, 'The size limit of the regex''s lazy DFA cache (bytes, or a K, M or G suffix), as ripgrep')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--iglob', '--iglob', [CompletionResultType]::ParameterName, 'Like -g, but case-insensitive (repeatable)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Only search files of this type (repeatable): rust, py, ripgrep''s type table, or `all`')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only search files of this type (repeatable): rust, py, ripgrep''s type table, or `all`')
            [CompletionResult]::new('-T', '-T ', [CompletionResultType]::ParameterName, 'Skip files of this type (repeatable; `all` skips every typed file)')
            [CompletionResult]::new('--type-not', '--type-not', [CompletionResultType]::ParameterName, 'Skip files of this type (repeatable; `all` skips every typed file)')
            [CompletionResult]::new('--type-add', '--type-add', [CompletionResultType]::ParameterName, 'Add a type: `NAME:GLOB` (repeatable; also `NAME:include:OTHER,…`)')
            [CompletionResult]::new('--type-clear', '--type-clear', [CompletionResultType]::ParameterName, 'Forget the globs of a type (repeatable), before --type-add adds to it')
            [CompletionResult]::new('--ignore-file', '--ignore-file', [CompletionResultType]::ParameterName, 'Also read ignore rules from FILE (gitignore syntax; repeatable)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Descend at most NUM directories below each path (0: only the paths themselves)')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Descend at most NUM directories below each path (0: only the paths themselves)')
            [CompletionResult]::new('--maxdepth', '--maxdepth', [CompletionResultType]::ParameterName, 'Descend at most NUM directories below each path (0: only the paths themselves)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'At most NUM matches per file')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'At most NUM matches per file')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'At most NUM matches in the whole run; the search stops there (status `partial`)')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than this (bytes, or with a K, M or G suffix)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Order files by path (the default), or by modified, accessed or created time')
            [CompletionResult]::new('--sortr', '--sortr', [CompletionResultType]::ParameterName, 'Like --sort, in reverse (newest first for times)')
            [CompletionResult]::new('-M', '-M ', [CompletionResultType]::ParameterName, 'In human output, do not print lines longer than NUM bytes (a summary instead; 0: no limit)')
            [CompletionResult]::new('--max-columns', '--max-columns', [CompletionResultType]::ParameterName, 'In human output, do not print lines longer than NUM bytes (a summary instead; 0: no limit)')
            [CompletionResult]::new('--context-separator', '--context-separator', [CompletionResultType]::ParameterName, 'In human output, the line between groups of context lines that are not contiguous (default `--`; escapes such as `\t` and `\x7F` are understood, as ripgrep)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('-E', '-E ', [CompletionResultType]::ParameterName, 'The encoding files are decoded from before they are searched: any WHATWG label (`latin1`, `shift_jis`, `utf-16le`…), `auto` (the default: a UTF-16 byte-order mark is decoded) or `none` (bytes as they are). JSON spans still address the bytes on disk; UTF-16 results are spelled `<PATH | UTF-16LE>` there (not mutation targets)')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'The encoding files are decoded from before they are searched: any WHATWG label (`latin1`, `shift_jis`, `utf-16le`…), `auto` (the default: a UTF-16 byte-order mark is decoded) or `none` (bytes as they are). JSON spans still address the bytes on disk; UTF-16 results are spelled `<PATH | UTF-16LE>` there (not mutation targets)')
            [CompletionResult]::new('--pre', '--pre', [CompletionResultType]::ParameterName, 'Search what COMMAND PATH writes to standard output (the file is its standard input too) instead of each file, as rg. In JSON such results are spelled `<PATH | COMMAND>`: no mutation takes them. An empty COMMAND runs none, as rg. Of --pre and -z, the last wins (as rg 13)')
            [CompletionResult]::new('--pre-glob', '--pre-glob', [CompletionResultType]::ParameterName, 'Only files matching GLOB go through --pre (repeatable; `!` excludes)')
            [CompletionResult]::new('--field-match-separator', '--field-match-separator', [CompletionResultType]::ParameterName, 'Human output: what follows the path, line number, column and byte offset on a matching line (default `:`; escapes such as `\t` and `\x7F` are understood, as rg)')
            [CompletionResult]::new('--field-context-separator', '--field-context-separator', [CompletionResultType]::ParameterName, 'Human output: what follows the path, line number and byte offset on a context line (default `-`; escapes as in --field-match-separator)')
            [CompletionResult]::new('--path-separator', '--path-separator', [CompletionResultType]::ParameterName, 'Human output: the byte that separates the parts of printed paths instead of `/` (exactly one byte, escapes understood; empty: `/`). JSON paths keep `/`')
            [CompletionResult]::new('--colors', '--colors', [CompletionResultType]::ParameterName, 'Human output with colour on: change a colour, as rg: `{type}:{attribute}:{value}`, type path, line, column or match; attribute fg or bg (black, blue, green, red, cyan, magenta, yellow, white, 0-255, or r,g,b) or style (bold, nobold, intense, nointense, underline, nounderline); `{type}:none` clears the type''s colours. Repeatable, later specs overriding earlier ones')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, not a regex')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, not a regex')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Case-insensitive search')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Case-insensitive search')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Case-sensitive search (the default; overrides an earlier -i or -S)')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Case-sensitive search (the default; overrides an earlier -i or -S)')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an uppercase letter')
            [CompletionResult]::new('--smart-case', '--smart-case', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an uppercase letter')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Only match whole words (`-x` given after it wins, as in rg)')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Only match whole words (`-x` given after it wins, as in rg)')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Only match whole lines (`-w` given after it wins, as in rg)')
            [CompletionResult]::new('--line-regexp', '--line-regexp', [CompletionResultType]::ParameterName, 'Only match whole lines (`-w` given after it wins, as in rg)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Report the lines that do not match (each a match spanning the whole line)')
            [CompletionResult]::new('--invert-match', '--invert-match', [CompletionResultType]::ParameterName, 'Report the lines that do not match (each a match spanning the whole line)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Human output: print each match''s text alone on its line (JSON matches already span only the match)')
            [CompletionResult]::new('--only-matching', '--only-matching', [CompletionResultType]::ParameterName, 'Human output: print each match''s text alone on its line (JSON matches already span only the match)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing; exit 0 at the first match, 1 when there is none, 2 on error')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing; exit 0 at the first match, 1 when there is none, 2 on error')
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Let matches span lines (`\n` can be matched; spans cover every line)')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let matches span lines (`\n` can be matched; spans cover every line)')
            [CompletionResult]::new('--multiline-dotall', '--multiline-dotall', [CompletionResultType]::ParameterName, 'With -U, make `.` match newlines too (without -U it changes nothing, as in ripgrep)')
            [CompletionResult]::new('--crlf', '--crlf', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: `$` already matches before `\r\n`')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: llm reads no configuration file')
            [CompletionResult]::new('--vimgrep', '--vimgrep', [CompletionResultType]::ParameterName, 'Human output: every match on a line of its own, `path:line:col:text` (a line with two matches prints twice; with -o, the match''s text), for editors'' quickfix lists')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'PCRE2 syntax: look-around, backreferences (`(\w+) \1`), possessive quantifiers. Named groups are `(?<name>…)`; `-r` refers to them as `$name` or `${name}`')
            [CompletionResult]::new('--pcre2', '--pcre2', [CompletionResultType]::ParameterName, 'PCRE2 syntax: look-around, backreferences (`(\w+) \1`), possessive quantifiers. Named groups are `(?<name>…)`; `-r` refers to them as `$name` or `${name}`')
            [CompletionResult]::new('--auto-hybrid-regex', '--auto-hybrid-regex', [CompletionResultType]::ParameterName, 'ripgrep''s older spelling of `--engine auto`')
            [CompletionResult]::new('--no-unicode', '--no-unicode', [CompletionResultType]::ParameterName, 'ASCII-only `\w`, `\d`, `\s`, `\b` and case folding')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Search binary files as text: no NUL detection, and patterns may match NUL')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Search binary files as text: no NUL detection, and patterns may match NUL')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Search binary files found by walking in full, as files named on the command line are (a warning says their text fields are lossy)')
            [CompletionResult]::new('--stop-on-nonmatch', '--stop-on-nonmatch', [CompletionResultType]::ParameterName, 'Stop searching a file at the first non-matching line after a matching one')
            [CompletionResult]::new('--glob-case-insensitive', '--glob-case-insensitive', [CompletionResultType]::ParameterName, 'Make every -g glob case-insensitive')
            [CompletionResult]::new('--type-list', '--type-list', [CompletionResultType]::ParameterName, 'List the known file types and their globs, then exit')
            [CompletionResult]::new('--pcre2-version', '--pcre2-version', [CompletionResultType]::ParameterName, 'Print the version of PCRE2 that -P uses and whether its JIT is available, then exit')
            [CompletionResult]::new('-.', '-.', [CompletionResultType]::ParameterName, 'Search hidden files and directories')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Search hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not respect .gitignore, .ignore, .rgignore and similar files')
            [CompletionResult]::new('--no-ignore-vcs', '--no-ignore-vcs', [CompletionResultType]::ParameterName, 'Do not respect .gitignore, .git/info/exclude and the global git excludes')
            [CompletionResult]::new('--no-ignore-dot', '--no-ignore-dot', [CompletionResultType]::ParameterName, 'Do not respect .ignore and .rgignore files')
            [CompletionResult]::new('--no-ignore-parent', '--no-ignore-parent', [CompletionResultType]::ParameterName, 'Do not respect ignore files in the parent directories of a path')
            [CompletionResult]::new('--no-ignore-global', '--no-ignore-global', [CompletionResultType]::ParameterName, 'Do not respect the global git excludes file (core.excludesFile)')
            [CompletionResult]::new('--no-ignore-exclude', '--no-ignore-exclude', [CompletionResultType]::ParameterName, 'Do not respect .git/info/exclude')
            [CompletionResult]::new('--no-ignore-files', '--no-ignore-files', [CompletionResultType]::ParameterName, 'Do not read the --ignore-file files')
            [CompletionResult]::new('--no-ignore-messages', '--no-ignore-messages', [CompletionResultType]::ParameterName, 'Do not warn of --ignore-file files that cannot be read')
            [CompletionResult]::new('--no-require-git', '--no-require-git', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: .gitignore files are honoured outside git repositories already')
            [CompletionResult]::new('--ignore-file-case-insensitive', '--ignore-file-case-insensitive', [CompletionResultType]::ParameterName, 'Match the rules of ignore files case-insensitively')
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'Reduce the filters: -u searches ignored files, -uu hidden ones too, -uuu binary files too (as --binary)')
            [CompletionResult]::new('--unrestricted', '--unrestricted', [CompletionResultType]::ParameterName, 'Reduce the filters: -u searches ignored files, -uu hidden ones too, -uuu binary files too (as --binary)')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--one-file-system', '--one-file-system', [CompletionResultType]::ParameterName, 'Do not cross into other file systems')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only list the files with at least one match. Of -l and --files-without-match the last given wins; -c and --count-matches win over both, as in ripgrep')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Only list the files with at least one match. Of -l and --files-without-match the last given wins; -c and --count-matches win over both, as in ripgrep')
            [CompletionResult]::new('--files-without-match', '--files-without-match', [CompletionResultType]::ParameterName, 'Only list the files searched that have no match')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'List the files that would be searched (with checksums in JSON), without searching (-l, -c and the like then change nothing)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Only show the number of matching lines per file (of -c and --count-matches the last given wins)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Only show the number of matching lines per file (of -c and --count-matches the last given wins)')
            [CompletionResult]::new('--count-matches', '--count-matches', [CompletionResultType]::ParameterName, 'Only show the number of matches per file')
            [CompletionResult]::new('--include-zero', '--include-zero', [CompletionResultType]::ParameterName, 'With -c/--count-matches, also list the files searched that have no match (count 0)')
            [CompletionResult]::new('--max-columns-preview', '--max-columns-preview', [CompletionResultType]::ParameterName, 'With -M, print the first NUM characters of a long line and how many matches it leaves out, rather than only a summary (as ripgrep)')
            [CompletionResult]::new('--no-context-separator', '--no-context-separator', [CompletionResultType]::ParameterName, 'In human output, nothing between groups of context lines')
            [CompletionResult]::new('--heading', '--heading', [CompletionResultType]::ParameterName, 'Group matches under a file heading (default on a terminal)')
            [CompletionResult]::new('--no-heading', '--no-heading', [CompletionResultType]::ParameterName, 'Print the path on every line (default when piped)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Human output: headings and colour, as on a terminal. JSON: indented')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Human output: headings and colour, as on a terminal. JSON: indented')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: line and column numbers are shown unless -N')
            [CompletionResult]::new('--line-number', '--line-number', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: line and column numbers are shown unless -N')
            [CompletionResult]::new('-N', '-N ', [CompletionResultType]::ParameterName, 'Human output: no line and column numbers (JSON spans keep them)')
            [CompletionResult]::new('--no-line-number', '--no-line-number', [CompletionResultType]::ParameterName, 'Human output: no line and column numbers (JSON spans keep them)')
            [CompletionResult]::new('--column', '--column', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: columns are always shown')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Human output: print the path on every line, even for one file (JSON always has it)')
            [CompletionResult]::new('--with-filename', '--with-filename', [CompletionResultType]::ParameterName, 'Human output: print the path on every line, even for one file (JSON always has it)')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'Human output: never print the path (JSON spans keep it)')
            [CompletionResult]::new('--no-filename', '--no-filename', [CompletionResultType]::ParameterName, 'Human output: never print the path (JSON spans keep it)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'Human output: follow each path with a NUL byte instead of `:` or a newline')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'Human output: follow each path with a NUL byte instead of `:` or a newline')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Human output: print the byte offset of each line (of each match with -o) before it')
            [CompletionResult]::new('--byte-offset', '--byte-offset', [CompletionResultType]::ParameterName, 'Human output: print the byte offset of each line (of each match with -o) before it')
            [CompletionResult]::new('--trim', '--trim', [CompletionResultType]::ParameterName, 'Human output: strip leading whitespace from printed lines (spans are unchanged)')
            [CompletionResult]::new('--stats', '--stats', [CompletionResultType]::ParameterName, 'Human output: print counts and timing after the results (JSON has data.stats)')
            [CompletionResult]::new('--no-messages', '--no-messages', [CompletionResultType]::ParameterName, 'Human output: do not print warnings and per-file errors on stderr (JSON keeps them)')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'no-hidden')
            [CompletionResult]::new('--no-follow', '--no-follow', [CompletionResultType]::ParameterName, 'no-follow')
            [CompletionResult]::new('--no-text', '--no-text', [CompletionResultType]::ParameterName, 'no-text')
            [CompletionResult]::new('--no-binary', '--no-binary', [CompletionResultType]::ParameterName, 'no-binary')
            [CompletionResult]::new('--no-crlf', '--no-crlf', [CompletionResultType]::ParameterName, 'no-crlf')
            [CompletionResult]::new('--no-fixed-strings', '--no-fixed-strings', [CompletionResultType]::ParameterName, 'no-fixed-strings')
            [CompletionResult]::new('--no-glob-case-insensitive', '--no-glob-case-insensitive', [CompletionResultType]::ParameterName, 'no-glob-case-insensitive')
            [CompletionResult]::new('--no-ignore-file-case-insensitive', '--no-ignore-file-case-insensitive', [CompletionResultType]::ParameterName, 'no-ignore-file-case-insensitive')
            [CompletionResult]::new('--no-max-columns-preview', '--no-max-columns-preview', [CompletionResultType]::ParameterName, 'no-max-columns-preview')
            [CompletionResult]::new('--no-multiline', '--no-multiline', [CompletionResultType]::ParameterName, 'no-multiline')
            [CompletionResult]::new('--no-multiline-dotall', '--no-multiline-dotall', [CompletionResultType]::ParameterName, 'no-multiline-dotall')
            [CompletionResult]::new('--no-one-file-system', '--no-one-file-system', [CompletionResultType]::ParameterName, 'no-one-file-system')
            [CompletionResult]::new('--no-pcre2', '--no-pcre2', [CompletionResultType]::ParameterName, 'no-pcre2')
            [CompletionResult]::new('--no-stats', '--no-stats', [CompletionResultType]::ParameterName, 'no-stats')
            [CompletionResult]::new('--no-trim', '--no-trim', [CompletionResultType]::ParameterName, 'no-trim')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'ignore')
            [CompletionResult]::new('--ignore-vcs', '--ignore-vcs', [CompletionResultType]::ParameterName, 'ignore-vcs')
            [CompletionResult]::new('--ignore-dot', '--ignore-dot', [CompletionResultType]::ParameterName, 'ignore-dot')
            [CompletionResult]::new('--ignore-parent', '--ignore-parent', [CompletionResultType]::ParameterName, 'ignore-parent')
            [CompletionResult]::new('--ignore-global', '--ignore-global', [CompletionResultType]::ParameterName, 'ignore-global')
            [CompletionResult]::new('--ignore-exclude', '--ignore-exclude', [CompletionResultType]::ParameterName, 'ignore-exclude')
            [CompletionResult]::new('--ignore-files', '--ignore-files', [CompletionResultType]::ParameterName, 'ignore-files')
            [CompletionResult]::new('--ignore-messages', '--ignore-messages', [CompletionResultType]::ParameterName, 'ignore-messages')
            [CompletionResult]::new('--messages', '--messages', [CompletionResultType]::ParameterName, 'messages')
            [CompletionResult]::new('--require-git', '--require-git', [CompletionResultType]::ParameterName, 'require-git')
            [CompletionResult]::new('--unicode', '--unicode', [CompletionResultType]::ParameterName, 'unicode')
            [CompletionResult]::new('--no-column', '--no-column', [CompletionResultType]::ParameterName, 'Show no column in human output (`--column` shows it again; JSON always has it)')
            [CompletionResult]::new('--mmap', '--mmap', [CompletionResultType]::ParameterName, 'Accepted for ripgrep''s sake: llm chooses how it reads files')
            [CompletionResult]::new('--no-mmap', '--no-mmap', [CompletionResultType]::ParameterName, 'Accepted for ripgrep''s sake: llm chooses how it reads files')
            [CompletionResult]::new('--no-pcre2-unicode', '--no-pcre2-unicode', [CompletionResultType]::ParameterName, 'ripgrep''s older spelling of --no-unicode (for -P)')
            [CompletionResult]::new('--pcre2-unicode', '--pcre2-unicode', [CompletionResultType]::ParameterName, 'ripgrep''s older spelling of --unicode')
            [CompletionResult]::new('--no-pre', '--no-pre', [CompletionResultType]::ParameterName, 'Run no --pre command (overrides an earlier --pre)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Search compressed files (.gz .tgz .bz2 .tbz2 .xz .txz .lz4 .lzma .br .zst .zstd .Z) through the program rg uses (gzip, bzip2, xz, lz4, brotli, zstd, uncompress). In JSON such results are spelled `<PATH | gzip -d -c>`: no mutation takes them. Of -z and --pre, the last wins (as rg 13)')
            [CompletionResult]::new('--search-zip', '--search-zip', [CompletionResultType]::ParameterName, 'Search compressed files (.gz .tgz .bz2 .tbz2 .xz .txz .lz4 .lzma .br .zst .zstd .Z) through the program rg uses (gzip, bzip2, xz, lz4, brotli, zstd, uncompress). In JSON such results are spelled `<PATH | gzip -d -c>`: no mutation takes them. Of -z and --pre, the last wins (as rg 13)')
            [CompletionResult]::new('--no-search-zip', '--no-search-zip', [CompletionResultType]::ParameterName, 'Do not decompress files (overrides an earlier -z)')
            [CompletionResult]::new('--passthru', '--passthru', [CompletionResultType]::ParameterName, 'Print every line of each file searched, those that do not match as context lines (of --passthru and -A/-B/-C the last given wins, as rg). JSON: each match''s context_before holds the lines since the previous match (the first: since the file''s start), the last match''s context_after the rest of the file; no line is given twice')
            [CompletionResult]::new('--passthrough', '--passthrough', [CompletionResultType]::ParameterName, 'Print every line of each file searched, those that do not match as context lines (of --passthru and -A/-B/-C the last given wins, as rg). JSON: each match''s context_before holds the lines since the previous match (the first: since the file''s start), the last match''s context_after the rest of the file; no line is given twice')
            [CompletionResult]::new('--null-data', '--null-data', [CompletionResultType]::ParameterName, 'NUL ends each line (a record) instead of `\n`, as rg: patterns may match `\n`, and no binary detection (as -a). Human output numbers, prints and ends records (with NUL); JSON spans keep the file''s real lines')
            [CompletionResult]::new('--sort-files', '--sort-files', [CompletionResultType]::ParameterName, 'ripgrep''s older spelling of `--sort path` (the last of --sort, --sortr and --sort-files wins)')
            [CompletionResult]::new('--no-sort-files', '--no-sort-files', [CompletionResultType]::ParameterName, 'Cancels --sort-files (files come in path order all the same)')
            [CompletionResult]::new('--line-buffered', '--line-buffered', [CompletionResultType]::ParameterName, 'Write each line of output as soon as it is printed (the default on a terminal), in every format')
            [CompletionResult]::new('--block-buffered', '--block-buffered', [CompletionResultType]::ParameterName, 'Write output in large blocks (the default when stdout is not a terminal), in every format')
            [CompletionResult]::new('--no-line-buffered', '--no-line-buffered', [CompletionResultType]::ParameterName, 'no-line-buffered')
            [CompletionResult]::new('--no-block-buffered', '--no-block-buffered', [CompletionResultType]::ParameterName, 'no-block-buffered')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print what llm decides on stderr (files and directories skipped and by which rule, threads, the regex engine); stdout is unchanged')
            [CompletionResult]::new('--trace', '--trace', [CompletionResultType]::ParameterName, 'As --debug, with more detail (the crates'' own trace messages too)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;ast' {
            [CompletionResult]::new('--query-file', '--query-file', [CompletionResultType]::ParameterName, 'Read the query from a file')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh). Also the language of a named file whose extension is not registered')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh). Also the language of a named file whose extension is not registered')
            [CompletionResult]::new('--tree', '--tree', [CompletionResultType]::ParameterName, 'Print the syntax tree of FILE (named nodes with field names and spans) instead of querying')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'With --tree: show the path from the root to the smallest named node at LINE:COL (1-indexed line, 0-indexed byte column) and that node''s subtree')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than this (bytes, or with a K, M or G suffix)')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'At most NUM matches in the whole run; the rest are still counted (status `partial`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-prefilter', '--no-prefilter', [CompletionResultType]::ParameterName, 'Parse every file of the queried languages whole, even when the query needs words a file (or a region of it) lacks: for nodes that error recovery builds in broken code around a missing keyword. Slower; the results are otherwise the same')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Search hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not respect .gitignore, .ignore and similar files')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;find' {
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Only symbols of this kind (repeatable): function, method, struct, enum, variant, trait, impl, type, const, static, module, macro, field, union, class, constant')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only symbols of this kind (repeatable): function, method, struct, enum, variant, trait, impl, type, const, static, module, macro, field, union, class, constant')
            [CompletionResult]::new('--parent', '--parent', [CompletionResultType]::ParameterName, 'Only symbols whose enclosing symbol has this name or qualified name (a method''s impl type or class)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than this (bytes, or with a K, M or G suffix)')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'At most NUM matches in the whole run; the rest are still counted (status `partial`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--outline', '--outline', [CompletionResultType]::ParameterName, 'Every symbol of the files, nested, in file order (no NAME)')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'Occurrences of NAME as an identifier (calls, paths like util::inc, obj.inc, imports); never inside comments or strings. Definitions are flagged is_definition')
            [CompletionResult]::new('--regex', '--regex', [CompletionResultType]::ParameterName, 'NAME is a regular expression matched against names and qualified names')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, 'NAME is a prefix of the name or qualified name')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Search hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not respect .gitignore, .ignore and similar files')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;transform' {
            [CompletionResult]::new('--old', '--old', [CompletionResultType]::ParameterName, 'Exact text to replace (must occur exactly once unless --all)')
            [CompletionResult]::new('--old-file', '--old-file', [CompletionResultType]::ParameterName, 'Read the text to replace from a file')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'Text that replaces --old (`''''` deletes it)')
            [CompletionResult]::new('--new-file', '--new-file', [CompletionResultType]::ParameterName, 'Read the replacement text from a file')
            [CompletionResult]::new('--edits', '--edits', [CompletionResultType]::ParameterName, 'Read the edit request (or piped query output) from this file instead of stdin (`-` = stdin)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'For piped `llm ast`/`llm find` output: replace each match''s span with TEXT (`$name` expands a capture, `$$` is `$`). For `llm search` output: used literally instead of -r')
            [CompletionResult]::new('--expected-checksum', '--expected-checksum', [CompletionResultType]::ParameterName, 'Refuse (rejected) unless the file''s SHA-256 is this (a checksum from an earlier read)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root: nothing is written outside it')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Replace every occurrence of --old (otherwise several occurrences are rejected)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Compute everything and show a unified diff; write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Allow writing outside --root (and through symlinks that leave it)')
            [CompletionResult]::new('--raw-line-endings', '--raw-line-endings', [CompletionResultType]::ParameterName, 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;patch' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The file holding the symbol')
            [CompletionResult]::new('--symbol', '--symbol', [CompletionResultType]::ParameterName, 'Name or qualified name (`parse`, `Parser::parse`, `Parser.parse`)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Only symbols of this kind (repeatable): function, method, struct, enum, class, impl…')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only symbols of this kind (repeatable): function, method, struct, enum, class, impl…')
            [CompletionResult]::new('--parent', '--parent', [CompletionResultType]::ParameterName, 'Only symbols whose parent (impl type, class, module) has this name')
            [CompletionResult]::new('--line', '--line', [CompletionResultType]::ParameterName, 'The symbol whose definition contains this line (innermost wins)')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'Read the new text from FILE')
            [CompletionResult]::new('--with-text', '--with-text', [CompletionResultType]::ParameterName, 'The new text')
            [CompletionResult]::new('--rename', '--rename', [CompletionResultType]::ParameterName, 'Rename the definition and every reference `llm find --refs` finds (all files at once)')
            [CompletionResult]::new('--check-timeout', '--check-timeout', [CompletionResultType]::ParameterName, 'Seconds each --check run may take (a cold `cargo check` can be slow)')
            [CompletionResult]::new('--in', '--in', [CompletionResultType]::ParameterName, 'Where --rename looks for references (repeatable; default: --root)')
            [CompletionResult]::new('--expected-checksum', '--expected-checksum', [CompletionResultType]::ParameterName, 'Refuse (status `rejected`) unless the file''s SHA-256 is this, e.g. the `checksum` of a prior `llm find` (piping that output on stdin sets it)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root: nothing is written outside it')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'Replace only the body (the `{…}` block of a function, method, class…; the suite of a Python def/class or a Ruby def/class)')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Delete the definition, with what is attached to it and the blank line it leaves')
            [CompletionResult]::new('--insert-before', '--insert-before', [CompletionResultType]::ParameterName, 'Insert the new text before the symbol, separated as its neighbours are')
            [CompletionResult]::new('--insert-after', '--insert-after', [CompletionResultType]::ParameterName, 'Insert the new text after the symbol, separated as its neighbours are')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Also run the language''s checker on the real project (`cargo check` for a file in a Cargo package, Python''s compile(), bash -n, ruby -wc, php -l, node --check, gofmt -e, javac, gcc/g++ -fsyntax-only, tsc --noEmit), before and after: errors the patch introduces reject it and the file is restored. A checker that is not installed rejects, never passes')
            [CompletionResult]::new('--certain-only', '--certain-only', [CompletionResultType]::ParameterName, 'With --rename: rewrite only `certain` sites (not method calls on receivers of unknown type, which are `possible`)')
            [CompletionResult]::new('--in-comments', '--in-comments', [CompletionResultType]::ParameterName, 'With --rename: also rewrite the name in comments, doc comments and doctests')
            [CompletionResult]::new('--in-strings', '--in-strings', [CompletionResultType]::ParameterName, 'With --rename: also rewrite the name in string literals and docstrings')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Compute everything and show a unified diff; write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Allow writing outside --root (and through symlinks that leave it)')
            [CompletionResult]::new('--raw-line-endings', '--raw-line-endings', [CompletionResultType]::ParameterName, 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;write' {
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The new content as an argument')
            [CompletionResult]::new('--content-file', '--content-file', [CompletionResultType]::ParameterName, 'Read the new content from a file (`-` for stdin). Without --content or --content-file, the content is read from stdin')
            [CompletionResult]::new('--expected-checksum', '--expected-checksum', [CompletionResultType]::ParameterName, 'With --overwrite: refuse unless the existing file''s SHA-256 is this (from a prior read)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Language for validation (rust, python…); default: from the extension')
            [CompletionResult]::new('--check-timeout', '--check-timeout', [CompletionResultType]::ParameterName, 'Seconds --check may take (a cold `cargo check` can be slow)')
            [CompletionResult]::new('--lsp', '--lsp', [CompletionResultType]::ParameterName, 'Validate with a language server over stdio, e.g. `pylsp` or `pyright-langserver --stdio`. Default: the LLM_LSP_<LANG> environment variable (LLM_LSP_PYTHON, LLM_LSP_RUST)')
            [CompletionResult]::new('--lsp-timeout', '--lsp-timeout', [CompletionResultType]::ParameterName, 'Seconds the language server may take to start and publish diagnostics')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root; nothing is written outside it')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Create missing parent directories (inside the root)')
            [CompletionResult]::new('--parents', '--parents', [CompletionResultType]::ParameterName, 'Create missing parent directories (inside the root)')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace the file if it exists (otherwise an existing file is refused)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Also run the language''s own checker: `cargo check` for a Rust file in a Cargo package, Python''s compile(), `bash -n`, `ruby -wc`, `php -l`, `node --check`, `gofmt -e`, `javac`, `gcc`/`g++ -fsyntax-only`, `tsc --noEmit` (with a tsconfig.json); C# has none')
            [CompletionResult]::new('--no-lsp', '--no-lsp', [CompletionResultType]::ParameterName, 'Do not use a language server, even if LLM_LSP_<LANG> is set')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Allow writing outside --root')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Validate and report (with a diff), write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even when validators report errors, or the content looks suspicious (they are reported as warnings), or the file to replace is read-only (its mode is kept)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;show' {
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Only symbols of this kind (repeatable): function, method, struct, class…')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only symbols of this kind (repeatable): function, method, struct, class…')
            [CompletionResult]::new('--parent', '--parent', [CompletionResultType]::ParameterName, 'Only symbols whose parent (impl type, class, module) has this name')
            [CompletionResult]::new('--line', '--line', [CompletionResultType]::ParameterName, 'The symbol whose definition contains this line (innermost wins)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after a symbol or a range')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after a symbol or a range')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Cut the text shown (all views together) at this many bytes, on a line boundary')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--skeleton', '--skeleton', [CompletionResultType]::ParameterName, 'Show every signature of the files under the paths, bodies elided')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;apply' {
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'Read the patch from FILE instead of stdin (`-` = stdin)')
            [CompletionResult]::new('--format-in', '--format-in', [CompletionResultType]::ParameterName, 'The input''s format (default: detected)')
            [CompletionResult]::new('--check-timeout', '--check-timeout', [CompletionResultType]::ParameterName, 'Seconds each --check run may take (a cold `cargo check` can be slow)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root: nothing is written outside it')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Also run the language''s checker on the real project before and after (as `llm patch --check`); errors the input introduced reject it and the files are restored')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Compute everything and show a unified diff; write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Allow writing outside --root (and through symlinks that leave it)')
            [CompletionResult]::new('--raw-line-endings', '--raw-line-endings', [CompletionResultType]::ParameterName, 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;history' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N operations (the newest)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root (its journal is at git''s top level above it, else here)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Empty the journal (every record and pre-image); nothing can be undone afterwards')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Let recovery and undo act on an operation that ran with --allow-outside-root (its record names files outside the root); without it such a record is refused (LLM_E122)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;undo' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root (its journal is at git''s top level above it, else here)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the unified diff of the undo; change nothing')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Let recovery and undo act on an operation that ran with --allow-outside-root (its record names files outside the root); without it such a record is refused (LLM_E122)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;generate' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Directory under which `completions/` and `man/` are written')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Shorthand for `--format json`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'llm;help' {
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Regex or literal text search over files and directories (ripgrep''s engine)')
            [CompletionResult]::new('ast', 'ast', [CompletionResultType]::ParameterValue, 'Tree-sitter query search over the files of 13 languages; `--tree` prints a file''s syntax tree')
            [CompletionResult]::new('find', 'find', [CompletionResultType]::ParameterValue, 'Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`)')
            [CompletionResult]::new('transform', 'transform', [CompletionResultType]::ParameterValue, 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Replace, delete, insert beside, or rename a named symbol (function, method, class…)')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Create or replace a file only when it is valid: tree-sitter syntax, then optionally the language''s checker (--check) and a language server (--lsp)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of every signature with bodies elided')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing change (add, delete, move, edit, patch symbols)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'The journal of mutations, newest first: ids, commands, files with before/after checksums, undone or recovered after a crash; `--prune` empties it')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Put every file of a journaled operation back as it was before (default: the newest operation not yet undone), all or nothing, refused when a file changed since')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packagers and this repository)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llm;help;search' {
            break
        }
        'llm;help;ast' {
            break
        }
        'llm;help;find' {
            break
        }
        'llm;help;transform' {
            break
        }
        'llm;help;patch' {
            break
        }
        'llm;help;write' {
            break
        }
        'llm;help;show' {
            break
        }
        'llm;help;apply' {
            break
        }
        'llm;help;history' {
            break
        }
        'llm;help;undo' {
            break
        }
        'llm;help;generate' {
            break
        }
        'llm;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

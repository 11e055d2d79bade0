
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
            [CompletionResult]::new('transform', 'transform', [CompletionResultType]::ParameterValue, 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packagers and this repository)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llm;search' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`')
            [CompletionResult]::new('--regexp', '--regexp', [CompletionResultType]::ParameterName, 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Only search files of this type (repeatable): rust, py, and ripgrep''s type table')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only search files of this type (repeatable): rust, py, and ripgrep''s type table')
            [CompletionResult]::new('-T', '-T ', [CompletionResultType]::ParameterName, 'Skip files of this type (repeatable)')
            [CompletionResult]::new('--type-not', '--type-not', [CompletionResultType]::ParameterName, 'Skip files of this type (repeatable)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'At most NUM matches per file')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'At most NUM matches per file')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'At most NUM matches in the whole run; the rest are still counted (status `partial`)')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than this (bytes, or with a K, M or G suffix)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)')
            [CompletionResult]::new('-M', '-M ', [CompletionResultType]::ParameterName, 'In human output, do not print lines longer than NUM bytes (a summary instead)')
            [CompletionResult]::new('--max-columns', '--max-columns', [CompletionResultType]::ParameterName, 'In human output, do not print lines longer than NUM bytes (a summary instead)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Number of threads (0 = one per core)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, not a regex')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, not a regex')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Case-insensitive search')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Case-insensitive search')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an uppercase letter')
            [CompletionResult]::new('--smart-case', '--smart-case', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an uppercase letter')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Only match whole words')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Only match whole words')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Only match whole lines')
            [CompletionResult]::new('--line-regexp', '--line-regexp', [CompletionResultType]::ParameterName, 'Only match whole lines')
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Let matches span lines (`\n` can be matched; spans cover every line)')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let matches span lines (`\n` can be matched; spans cover every line)')
            [CompletionResult]::new('--multiline-dotall', '--multiline-dotall', [CompletionResultType]::ParameterName, 'With -U, make `.` match newlines too')
            [CompletionResult]::new('--type-list', '--type-list', [CompletionResultType]::ParameterName, 'List the known file types and their globs, then exit')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Search hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not respect .gitignore, .ignore and similar files')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only list the files with at least one match')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Only list the files with at least one match')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Only show the number of matching lines per file')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Only show the number of matching lines per file')
            [CompletionResult]::new('--count-matches', '--count-matches', [CompletionResultType]::ParameterName, 'Only show the number of matches per file')
            [CompletionResult]::new('--heading', '--heading', [CompletionResultType]::ParameterName, 'Group matches under a file heading (default on a terminal)')
            [CompletionResult]::new('--no-heading', '--no-heading', [CompletionResultType]::ParameterName, 'Print the path on every line (default when piped)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: line and column numbers are always shown')
            [CompletionResult]::new('--line-number', '--line-number', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: line and column numbers are always shown')
            [CompletionResult]::new('--column', '--column', [CompletionResultType]::ParameterName, 'Accepted for ripgrep compatibility: columns are always shown')
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
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even when the change introduces syntax errors (reported as warnings)')
            [CompletionResult]::new('--allow-outside-root', '--allow-outside-root', [CompletionResultType]::ParameterName, 'Allow writing outside --root (and through symlinks that leave it)')
            [CompletionResult]::new('--raw-line-endings', '--raw-line-endings', [CompletionResultType]::ParameterName, 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files')
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
            [CompletionResult]::new('transform', 'transform', [CompletionResultType]::ParameterValue, 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packagers and this repository)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llm;help;search' {
            break
        }
        'llm;help;transform' {
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


use builtin;
use str;

set edit:completion:arg-completer[llm] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'llm'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'llm'= {
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand search 'Regex or literal text search over files and directories (ripgrep''s engine)'
            cand transform 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)'
            cand generate 'Write shell completions and man pages (for packagers and this repository)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llm;search'= {
            cand -e 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`'
            cand --regexp 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`'
            cand -A 'Lines of context after each match'
            cand --after-context 'Lines of context after each match'
            cand -B 'Lines of context before each match'
            cand --before-context 'Lines of context before each match'
            cand -C 'Lines of context before and after each match'
            cand --context 'Lines of context before and after each match'
            cand -g 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand --glob 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand -t 'Only search files of this type (repeatable): rust, py, and ripgrep''s type table'
            cand --type 'Only search files of this type (repeatable): rust, py, and ripgrep''s type table'
            cand -T 'Skip files of this type (repeatable)'
            cand --type-not 'Skip files of this type (repeatable)'
            cand -m 'At most NUM matches per file'
            cand --max-count 'At most NUM matches per file'
            cand --max-results 'At most NUM matches in the whole run; the rest are still counted (status `partial`)'
            cand --max-filesize 'Skip files larger than this (bytes, or with a K, M or G suffix)'
            cand -r 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)'
            cand --replace 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)'
            cand -M 'In human output, do not print lines longer than NUM bytes (a summary instead)'
            cand --max-columns 'In human output, do not print lines longer than NUM bytes (a summary instead)'
            cand -j 'Number of threads (0 = one per core)'
            cand --threads 'Number of threads (0 = one per core)'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand -F 'Treat the pattern as a literal string, not a regex'
            cand --fixed-strings 'Treat the pattern as a literal string, not a regex'
            cand -i 'Case-insensitive search'
            cand --ignore-case 'Case-insensitive search'
            cand -S 'Case-insensitive unless the pattern has an uppercase letter'
            cand --smart-case 'Case-insensitive unless the pattern has an uppercase letter'
            cand -w 'Only match whole words'
            cand --word-regexp 'Only match whole words'
            cand -x 'Only match whole lines'
            cand --line-regexp 'Only match whole lines'
            cand -U 'Let matches span lines (`\n` can be matched; spans cover every line)'
            cand --multiline 'Let matches span lines (`\n` can be matched; spans cover every line)'
            cand --multiline-dotall 'With -U, make `.` match newlines too'
            cand --type-list 'List the known file types and their globs, then exit'
            cand --hidden 'Search hidden files and directories'
            cand --no-ignore 'Do not respect .gitignore, .ignore and similar files'
            cand -L 'Follow symbolic links'
            cand --follow 'Follow symbolic links'
            cand -l 'Only list the files with at least one match'
            cand --files-with-matches 'Only list the files with at least one match'
            cand -c 'Only show the number of matching lines per file'
            cand --count 'Only show the number of matching lines per file'
            cand --count-matches 'Only show the number of matches per file'
            cand --heading 'Group matches under a file heading (default on a terminal)'
            cand --no-heading 'Print the path on every line (default when piped)'
            cand -n 'Accepted for ripgrep compatibility: line and column numbers are always shown'
            cand --line-number 'Accepted for ripgrep compatibility: line and column numbers are always shown'
            cand --column 'Accepted for ripgrep compatibility: columns are always shown'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;transform'= {
            cand --old 'Exact text to replace (must occur exactly once unless --all)'
            cand --old-file 'Read the text to replace from a file'
            cand --new 'Text that replaces --old (`''''` deletes it)'
            cand --new-file 'Read the replacement text from a file'
            cand --edits 'Read the edit request (or piped query output) from this file instead of stdin (`-` = stdin)'
            cand --replace 'For piped `llm ast`/`llm find` output: replace each match''s span with TEXT (`$name` expands a capture, `$$` is `$`). For `llm search` output: used literally instead of -r'
            cand --expected-checksum 'Refuse (rejected) unless the file''s SHA-256 is this (a checksum from an earlier read)'
            cand --root 'Workspace root: nothing is written outside it'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --all 'Replace every occurrence of --old (otherwise several occurrences are rejected)'
            cand --dry-run 'Compute everything and show a unified diff; write nothing'
            cand --force 'Write even when the change introduces syntax errors (reported as warnings)'
            cand --allow-outside-root 'Allow writing outside --root (and through symlinks that leave it)'
            cand --raw-line-endings 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;generate'= {
            cand --out-dir 'Directory under which `completions/` and `man/` are written'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;help'= {
            cand search 'Regex or literal text search over files and directories (ripgrep''s engine)'
            cand transform 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)'
            cand generate 'Write shell completions and man pages (for packagers and this repository)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llm;help;search'= {
        }
        &'llm;help;transform'= {
        }
        &'llm;help;generate'= {
        }
        &'llm;help;help'= {
        }
    ]
    $completions[$command]
}

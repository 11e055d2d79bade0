# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_llm_global_optspecs
    string join \n format= json color= h/help V/version
end

function __fish_llm_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_llm_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_llm_using_subcommand
    set -l cmd (__fish_llm_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c llm -n "__fish_llm_needs_command" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_needs_command" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_needs_command" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llm -n "__fish_llm_needs_command" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_needs_command" -f -a "search" -d 'Regex or literal text search over files and directories (ripgrep\'s engine)'
complete -c llm -n "__fish_llm_needs_command" -f -a "transform" -d 'Apply byte-span or exact-text edits, guarded by the file\'s SHA-256 (atomic, all or nothing)'
complete -c llm -n "__fish_llm_needs_command" -f -a "generate" -d 'Write shell completions and man pages (for packagers and this repository)'
complete -c llm -n "__fish_llm_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c llm -n "__fish_llm_using_subcommand search" -s e -l regexp -d 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s A -l after-context -d 'Lines of context after each match' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s B -l before-context -d 'Lines of context before each match' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s C -l context -d 'Lines of context before and after each match' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s g -l glob -d 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g \'*.rs\' -g \'!tests/**\'`' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s t -l type -d 'Only search files of this type (repeatable): rust, py, and ripgrep\'s type table' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s T -l type-not -d 'Skip files of this type (repeatable)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s m -l max-count -d 'At most NUM matches per file' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l max-results -d 'At most NUM matches in the whole run; the rest are still counted (status `partial`)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l max-filesize -d 'Skip files larger than this (bytes, or with a K, M or G suffix)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s r -l replace -d 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s M -l max-columns -d 'In human output, do not print lines longer than NUM bytes (a summary instead)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s j -l threads -d 'Number of threads (0 = one per core)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand search" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand search" -s F -l fixed-strings -d 'Treat the pattern as a literal string, not a regex'
complete -c llm -n "__fish_llm_using_subcommand search" -s i -l ignore-case -d 'Case-insensitive search'
complete -c llm -n "__fish_llm_using_subcommand search" -s S -l smart-case -d 'Case-insensitive unless the pattern has an uppercase letter'
complete -c llm -n "__fish_llm_using_subcommand search" -s w -l word-regexp -d 'Only match whole words'
complete -c llm -n "__fish_llm_using_subcommand search" -s x -l line-regexp -d 'Only match whole lines'
complete -c llm -n "__fish_llm_using_subcommand search" -s U -l multiline -d 'Let matches span lines (`\\n` can be matched; spans cover every line)'
complete -c llm -n "__fish_llm_using_subcommand search" -l multiline-dotall -d 'With -U, make `.` match newlines too'
complete -c llm -n "__fish_llm_using_subcommand search" -l type-list -d 'List the known file types and their globs, then exit'
complete -c llm -n "__fish_llm_using_subcommand search" -l hidden -d 'Search hidden files and directories'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore -d 'Do not respect .gitignore, .ignore and similar files'
complete -c llm -n "__fish_llm_using_subcommand search" -s L -l follow -d 'Follow symbolic links'
complete -c llm -n "__fish_llm_using_subcommand search" -s l -l files-with-matches -d 'Only list the files with at least one match'
complete -c llm -n "__fish_llm_using_subcommand search" -s c -l count -d 'Only show the number of matching lines per file'
complete -c llm -n "__fish_llm_using_subcommand search" -l count-matches -d 'Only show the number of matches per file'
complete -c llm -n "__fish_llm_using_subcommand search" -l heading -d 'Group matches under a file heading (default on a terminal)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-heading -d 'Print the path on every line (default when piped)'
complete -c llm -n "__fish_llm_using_subcommand search" -s n -l line-number -d 'Accepted for ripgrep compatibility: line and column numbers are always shown'
complete -c llm -n "__fish_llm_using_subcommand search" -l column -d 'Accepted for ripgrep compatibility: columns are always shown'
complete -c llm -n "__fish_llm_using_subcommand search" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand search" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand search" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand transform" -l old -d 'Exact text to replace (must occur exactly once unless --all)' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l old-file -d 'Read the text to replace from a file' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l new -d 'Text that replaces --old (`\'\'` deletes it)' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l new-file -d 'Read the replacement text from a file' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l edits -d 'Read the edit request (or piped query output) from this file instead of stdin (`-` = stdin)' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l replace -d 'For piped `llm ast`/`llm find` output: replace each match\'s span with TEXT (`$name` expands a capture, `$$` is `$`). For `llm search` output: used literally instead of -r' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l expected-checksum -d 'Refuse (rejected) unless the file\'s SHA-256 is this (a checksum from an earlier read)' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l root -d 'Workspace root: nothing is written outside it' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand transform" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand transform" -l all -d 'Replace every occurrence of --old (otherwise several occurrences are rejected)'
complete -c llm -n "__fish_llm_using_subcommand transform" -l dry-run -d 'Compute everything and show a unified diff; write nothing'
complete -c llm -n "__fish_llm_using_subcommand transform" -l force -d 'Write even when the change introduces syntax errors (reported as warnings)'
complete -c llm -n "__fish_llm_using_subcommand transform" -l allow-outside-root -d 'Allow writing outside --root (and through symlinks that leave it)'
complete -c llm -n "__fish_llm_using_subcommand transform" -l raw-line-endings -d 'Keep inserted text byte for byte: do not convert its `\\n` to `\\r\\n` in CRLF files'
complete -c llm -n "__fish_llm_using_subcommand transform" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand transform" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand transform" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand generate" -l out-dir -d 'Directory under which `completions/` and `man/` are written' -r -F
complete -c llm -n "__fish_llm_using_subcommand generate" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand generate" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand generate" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand generate" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand generate" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search transform generate help" -f -a "search" -d 'Regex or literal text search over files and directories (ripgrep\'s engine)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search transform generate help" -f -a "transform" -d 'Apply byte-span or exact-text edits, guarded by the file\'s SHA-256 (atomic, all or nothing)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search transform generate help" -f -a "generate" -d 'Write shell completions and man pages (for packagers and this repository)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search transform generate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'

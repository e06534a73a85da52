
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'devprojex' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'devprojex'
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
        'devprojex' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Print the effective file tree')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'File, character and token metrics, and the largest files')
            [CompletionResult]::new('pack', 'pack', [CompletionResultType]::ParameterValue, 'Write a context pack (tree and file contents) that fits a token budget')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Grep-style search over redacted file contents')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'One file by line range, secrets redacted: what the get_file tool shows an agent')
            [CompletionResult]::new('symbols', 'symbols', [CompletionResultType]::ParameterValue, 'Where a name is defined: functions, types, classes, constants, macros, modules (15 languages)')
            [CompletionResult]::new('related', 'related', [CompletionResultType]::ParameterValue, 'Files linked to one file by static imports: what it imports and what imports it')
            [CompletionResult]::new('references', 'references', [CompletionResultType]::ParameterValue, 'Every use of a defined name, each labelled resolved or name-only')
            [CompletionResult]::new('outline', 'outline', [CompletionResultType]::ParameterValue, 'One file''s definitions in order, with their start and end lines')
            [CompletionResult]::new('relevant', 'relevant', [CompletionResultType]::ParameterValue, 'The files that matter for a task, ranked, with reasons and line ranges (no model)')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'List secrets found in the project (file, line, rule; never the secret). Exit 1 when any is found')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Run the read-only MCP server over stdio')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'Manage the per-project `local` profile and validate portable profiles')
            [CompletionResult]::new('setup', 'setup', [CompletionResultType]::ParameterValue, 'Register the MCP server in your clients: Claude Code, Claude Desktop, Codex, Antigravity, Cursor, VS Code, Gemini CLI, Copilot CLI, Windsurf and Zed')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the binary, the roots, Git, and every configured client entry')
            [CompletionResult]::new('self-update', 'self-update', [CompletionResultType]::ParameterValue, 'Update this standalone devprojex to the latest release (sha256-verified)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'devprojex;tree' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Depth to show (top level = 1)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Default markdown')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Existing project-relative files or folders to narrow to; at most 256 entries')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, '''standard'' (default), ''local'', or a portable profile JSON path inside the project')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--max-lines', '--max-lines', [CompletionResultType]::ParameterName, 'At most this many document lines (markdown/text end with a truncation trailer; json/xml fail)')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;analyze' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Project-relative files or folders to narrow to')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'standard (default), local, or a profile JSON path in the project')
            [CompletionResult]::new('--detail', '--detail', [CompletionResultType]::ParameterName, 'full (default); compact drops comments and blank lines; signatures also function bodies')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--top-files', '--top-files', [CompletionResultType]::ParameterName, 'Largest files to list (default 10)')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'Also count exact tokens of this encoding: o200k (GPT-4o and later) or cl100k (GPT-4)')
            [CompletionResult]::new('--tree', '--tree', [CompletionResultType]::ParameterName, 'Tokens per folder in tree order, with each folder''s share, down to DEPTH levels (all levels without DEPTH). Put it after the project path: `analyze . --tree 2`')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;pack' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Project-relative files or folders to narrow to')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'standard (default), local, or a profile JSON path in the project')
            [CompletionResult]::new('--detail', '--detail', [CompletionResultType]::ParameterName, 'full (default); compact drops comments and blank lines; signatures also function bodies')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Estimated content tokens (characters / 4 per file); default unlimited')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes')
            [CompletionResult]::new('--view', '--view', [CompletionResultType]::ParameterName, 'Default tree-content; diff needs git_scope')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Default markdown')
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'Make max_tokens exact in this encoding')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'A task: files by relevance, max_tokens filled best-first (full, signatures, names)')
            [CompletionResult]::new('--rank', '--rank', [CompletionResultType]::ParameterName, 'relevance (default with query), centrality (repository map), paths (as listed)')
            [CompletionResult]::new('--detail-overrides', '--detail-overrides', [CompletionResultType]::ParameterName, '{glob: detail}')
            [CompletionResult]::new('--detail-override', '--detail-override', [CompletionResultType]::ParameterName, '{glob: detail}')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--query-file', '--query-file', [CompletionResultType]::ParameterName, 'Read the query from this file (UTF-8 text, at most 8,000 characters) instead of --query')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to this file (atomically replaced) instead of stdout. A file inside the project is never packed into itself')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to this file (atomically replaced) instead of stdout. A file inside the project is never packed into itself')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr except errors (no budget report, summary or warnings)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr except errors (no budget report, summary or warnings)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;search' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes')
            [CompletionResult]::new('--context-lines', '--context-lines', [CompletionResultType]::ParameterName, 'Context lines around a match (default 2)')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Case-insensitive matching (default true)')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'Maximum matching lines or files (default 50)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Matching lines (or files) to skip; a capped answer names the next offset')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'files: paths; count: path:count, most first (default matches)')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Existing project-relative files or folders to narrow to; at most 256 entries')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, '''standard'' (default), ''local'', or a portable profile JSON path inside the project')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop after this many seconds with what was found (the default is no limit; the MCP server''s limit is 2 seconds)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: grep-style lines, or a JSON document of the groups and counts')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--literal', '--literal', [CompletionResultType]::ParameterName, 'Treat pattern as a fixed string, not a regex')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match case exactly (the same as --ignore-case=false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;get' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--start-line', '--start-line', [CompletionResultType]::ParameterName, 'First line, 1-based (default 1)')
            [CompletionResult]::new('--end-line', '--end-line', [CompletionResultType]::ParameterName, 'Last line, inclusive')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the Git checkout holding PATH, else the current directory)')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: the file''s text, or a JSON document of the slice and its line numbers')
            [CompletionResult]::new('--line-numbers', '--line-numbers', [CompletionResultType]::ParameterName, 'Prefix lines with their number and a tab, as cat -n')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;symbols' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this kind; trait matches interface')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Name comparison (default exact)')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'Maximum definitions (default 50)')
            [CompletionResult]::new('--outline', '--outline', [CompletionResultType]::ParameterName, 'A file to outline instead of name')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Existing project-relative files or folders to narrow to; at most 256 entries')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, '''standard'' (default), ''local'', or a portable profile JSON path inside the project')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Remove files strictly larger than this many bytes')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop after this many seconds with what was found (default: run to completion)')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--include-body', '--include-body', [CompletionResultType]::ParameterName, 'Add bodies (up to 400 lines)')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;related' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'imports, importers, or both (default)')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'Import steps to follow (default 1)')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Project-relative files or folders to narrow to')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'standard (default), local, or a profile JSON path in the project')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'Maximum related files (default 50)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the Git checkout holding PATH, else the current directory)')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop after this many seconds with what was found (default: run to completion)')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;references' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'path:line of the definition meant')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this kind; trait matches interface')
            [CompletionResult]::new('--include-imports', '--include-imports', [CompletionResultType]::ParameterName, 'Count imports (default true)')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'References per page (default 100)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'References to skip')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Project-relative files or folders to narrow to')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, '''standard'' (default), ''local'', or a portable profile JSON path inside the project')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Remove files strictly larger than this many bytes')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop after this many seconds with what was found (default: run to completion)')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;outline' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the Git checkout holding FILE, else the current directory)')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;relevant' {
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch of a Git URL project')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'The task, in words or code')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Globs files must match (without ''/'': at any depth)')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Globs of files to leave out')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Only files changed: staged, changes, or diff:<ref>..<ref>')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'Maximum ranked files (default 20)')
            [CompletionResult]::new('--query-file', '--query-file', [CompletionResultType]::ParameterName, 'Read the query from this file (UTF-8 text, at most 8,000 characters) instead of --query')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Existing project-relative files or folders to narrow to; at most 256 entries')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, '''standard'' (default), ''local'', or a portable profile JSON path inside the project')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Only files in the Git index')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;scan' {
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Existing project-relative files or folders to narrow to; at most 256 entries')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'Project-relative globs using ''/'' (a file must match one). A pattern without ''/'' matches names at any depth. Globs only narrow the selection')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'Project-relative globs using ''/'' (matching files are removed). A pattern without ''/'' matches names at any depth. Globs only narrow the selection')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, '''standard'' (default), ''local'', or a portable profile JSON path inside the project')
            [CompletionResult]::new('--git-scope', '--git-scope', [CompletionResultType]::ParameterName, 'Narrow to Git state: ''staged'', ''changes'', or ''diff:<ref>..<ref>''. Content always comes from the working tree')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Remove files strictly larger than this many bytes')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Branch to check out; valid only when the project is a Git URL')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Git baseline: none (alias off), gitignore (default), tracked')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--tracked-only', '--tracked-only', [CompletionResultType]::ParameterName, 'Select only files in the Git index (default false). Cannot weaken a tracked profile')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also hide private data (e-mails, IPs, user and host names) in the output')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Accept a Git URL as the project (cloned into the user cache; the only network use)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;mcp' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A project root to expose (repeatable)')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Baseline Git mode when a tool names no profile: none (alias off), gitignore, tracked')
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'Exact tokens of this encoding in analyze (beside the estimate) and in pack_context''s max_tokens (the complete document): o200k (GPT-4o and later) or cl100k (GPT-4)')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Also redact private data (e-mails, IPs, user and host names) in everything returned')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Allow Git URLs as `project` (network is used only to clone)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the project''s local profile (or the built-in standard one when none is saved)')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Save selection settings as the project''s local profile')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the local profile to a portable profile file')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Store a portable profile file as the project''s local profile')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a profile file against the schema')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Delete the project''s local profile')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'devprojex;profile;show' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile;save' {
            [CompletionResult]::new('--roots', '--roots', [CompletionResultType]::ParameterName, 'Folders to keep')
            [CompletionResult]::new('--extensions', '--extensions', [CompletionResultType]::ParameterName, 'Extensions to keep (without the dot)')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Files or folders to keep in addition to --roots')
            [CompletionResult]::new('--include-patterns', '--include-patterns', [CompletionResultType]::ParameterName, 'include-patterns')
            [CompletionResult]::new('--exclude-patterns', '--exclude-patterns', [CompletionResultType]::ParameterName, 'exclude-patterns')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'none (off), gitignore, tracked')
            [CompletionResult]::new('--detail', '--detail', [CompletionResultType]::ParameterName, 'full, compact, signatures')
            [CompletionResult]::new('--exclude-hidden-folders', '--exclude-hidden-folders', [CompletionResultType]::ParameterName, 'exclude-hidden-folders')
            [CompletionResult]::new('--exclude-hidden-files', '--exclude-hidden-files', [CompletionResultType]::ParameterName, 'exclude-hidden-files')
            [CompletionResult]::new('--exclude-dot-folders', '--exclude-dot-folders', [CompletionResultType]::ParameterName, 'exclude-dot-folders')
            [CompletionResult]::new('--exclude-dot-files', '--exclude-dot-files', [CompletionResultType]::ParameterName, 'exclude-dot-files')
            [CompletionResult]::new('--exclude-empty-folders', '--exclude-empty-folders', [CompletionResultType]::ParameterName, 'exclude-empty-folders')
            [CompletionResult]::new('--exclude-empty-files', '--exclude-empty-files', [CompletionResultType]::ParameterName, 'exclude-empty-files')
            [CompletionResult]::new('--exclude-extensionless-files', '--exclude-extensionless-files', [CompletionResultType]::ParameterName, 'exclude-extensionless-files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile;export' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Destination file (default: stdout)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Destination file (default: stdout)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile;import' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile;validate' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile;reset' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;profile;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the project''s local profile (or the built-in standard one when none is saved)')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Save selection settings as the project''s local profile')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the local profile to a portable profile file')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Store a portable profile file as the project''s local profile')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a profile file against the schema')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Delete the project''s local profile')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'devprojex;profile;help;show' {
            break
        }
        'devprojex;profile;help;save' {
            break
        }
        'devprojex;profile;help;export' {
            break
        }
        'devprojex;profile;help;import' {
            break
        }
        'devprojex;profile;help;validate' {
            break
        }
        'devprojex;profile;help;reset' {
            break
        }
        'devprojex;profile;help;help' {
            break
        }
        'devprojex;setup' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'Client to configure (repeatable; `all` for every detected client). Default: the detected clients')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, '`user`: the user''s own config. `project`: files in the current repository (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, .gemini/settings.json)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Pin the server to this project folder (repeatable; `~` is expanded). Default: each client''s own way to the project (see above); Claude Desktop, Antigravity and Windsurf need it. `/`, a drive root and the home folder are refused (see --allow-broad-root)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Name of the server entry')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Bake `--git-mode MODE` into the server command line')
            [CompletionResult]::new('--command-path', '--command-path', [CompletionResultType]::ParameterName, 'How to write the command: `auto` writes `devprojex` when the client would find this binary through its own PATH (desktop apps do not get the shell''s), else its stable absolute path (Homebrew''s `bin/devprojex`, never a versioned Cellar path)')
            [CompletionResult]::new('--allow-broad-root', '--allow-broad-root', [CompletionResultType]::ParameterName, 'Accept a --root that is `/`, a drive root, the home folder or a folder above it: the server then reads every file there (SSH keys, browser profiles, other projects)')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Bake `--hide-private-data` into the server command line')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Bake `--allow-remote` into the server command line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show a unified diff of each file instead of writing')
            [CompletionResult]::new('--remove', '--remove', [CompletionResultType]::ParameterName, 'Remove the entry instead of adding it (Claude Code: user scope and every project''s local scope)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace (or remove) an entry of the same name that was changed by hand')
            [CompletionResult]::new('--allow-dev-build', '--allow-dev-build', [CompletionResultType]::ParameterName, 'Write entries that run this binary even though it is a development build in a Cargo `target/` folder (what `cargo run -- setup` runs)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Apply without asking')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Apply without asking')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List every client, its config files, and the entry''s state in each')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'devprojex;setup;status' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'Client to configure (repeatable; `all` for every detected client). Default: the detected clients')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, '`user`: the user''s own config. `project`: files in the current repository (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, .gemini/settings.json)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Pin the server to this project folder (repeatable; `~` is expanded). Default: each client''s own way to the project (see above); Claude Desktop, Antigravity and Windsurf need it. `/`, a drive root and the home folder are refused (see --allow-broad-root)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Name of the server entry')
            [CompletionResult]::new('--git-mode', '--git-mode', [CompletionResultType]::ParameterName, 'Bake `--git-mode MODE` into the server command line')
            [CompletionResult]::new('--command-path', '--command-path', [CompletionResultType]::ParameterName, 'How to write the command: `auto` writes `devprojex` when the client would find this binary through its own PATH (desktop apps do not get the shell''s), else its stable absolute path (Homebrew''s `bin/devprojex`, never a versioned Cellar path)')
            [CompletionResult]::new('--allow-broad-root', '--allow-broad-root', [CompletionResultType]::ParameterName, 'Accept a --root that is `/`, a drive root, the home folder or a folder above it: the server then reads every file there (SSH keys, browser profiles, other projects)')
            [CompletionResult]::new('--hide-private-data', '--hide-private-data', [CompletionResultType]::ParameterName, 'Bake `--hide-private-data` into the server command line')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Bake `--allow-remote` into the server command line')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;setup;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List every client, its config files, and the entry''s state in each')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'devprojex;setup;help;status' {
            break
        }
        'devprojex;setup;help;help' {
            break
        }
        'devprojex;doctor' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Project folder to check (repeatable). Default: the current directory')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Name of the server entry to look for')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;self-update' {
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Install this release (for example 0.4.1 or v0.4.1) instead of the latest; may downgrade')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Only check whether a newer release exists; change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Update without asking for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Update without asking for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'devprojex;completion' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;man' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'devprojex;help' {
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Print the effective file tree')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'File, character and token metrics, and the largest files')
            [CompletionResult]::new('pack', 'pack', [CompletionResultType]::ParameterValue, 'Write a context pack (tree and file contents) that fits a token budget')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Grep-style search over redacted file contents')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'One file by line range, secrets redacted: what the get_file tool shows an agent')
            [CompletionResult]::new('symbols', 'symbols', [CompletionResultType]::ParameterValue, 'Where a name is defined: functions, types, classes, constants, macros, modules (15 languages)')
            [CompletionResult]::new('related', 'related', [CompletionResultType]::ParameterValue, 'Files linked to one file by static imports: what it imports and what imports it')
            [CompletionResult]::new('references', 'references', [CompletionResultType]::ParameterValue, 'Every use of a defined name, each labelled resolved or name-only')
            [CompletionResult]::new('outline', 'outline', [CompletionResultType]::ParameterValue, 'One file''s definitions in order, with their start and end lines')
            [CompletionResult]::new('relevant', 'relevant', [CompletionResultType]::ParameterValue, 'The files that matter for a task, ranked, with reasons and line ranges (no model)')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'List secrets found in the project (file, line, rule; never the secret). Exit 1 when any is found')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Run the read-only MCP server over stdio')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'Manage the per-project `local` profile and validate portable profiles')
            [CompletionResult]::new('setup', 'setup', [CompletionResultType]::ParameterValue, 'Register the MCP server in your clients: Claude Code, Claude Desktop, Codex, Antigravity, Cursor, VS Code, Gemini CLI, Copilot CLI, Windsurf and Zed')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the binary, the roots, Git, and every configured client entry')
            [CompletionResult]::new('self-update', 'self-update', [CompletionResultType]::ParameterValue, 'Update this standalone devprojex to the latest release (sha256-verified)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'devprojex;help;tree' {
            break
        }
        'devprojex;help;analyze' {
            break
        }
        'devprojex;help;pack' {
            break
        }
        'devprojex;help;search' {
            break
        }
        'devprojex;help;get' {
            break
        }
        'devprojex;help;symbols' {
            break
        }
        'devprojex;help;related' {
            break
        }
        'devprojex;help;references' {
            break
        }
        'devprojex;help;outline' {
            break
        }
        'devprojex;help;relevant' {
            break
        }
        'devprojex;help;scan' {
            break
        }
        'devprojex;help;mcp' {
            break
        }
        'devprojex;help;profile' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the project''s local profile (or the built-in standard one when none is saved)')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Save selection settings as the project''s local profile')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the local profile to a portable profile file')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Store a portable profile file as the project''s local profile')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a profile file against the schema')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Delete the project''s local profile')
            break
        }
        'devprojex;help;profile;show' {
            break
        }
        'devprojex;help;profile;save' {
            break
        }
        'devprojex;help;profile;export' {
            break
        }
        'devprojex;help;profile;import' {
            break
        }
        'devprojex;help;profile;validate' {
            break
        }
        'devprojex;help;profile;reset' {
            break
        }
        'devprojex;help;setup' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List every client, its config files, and the entry''s state in each')
            break
        }
        'devprojex;help;setup;status' {
            break
        }
        'devprojex;help;doctor' {
            break
        }
        'devprojex;help;self-update' {
            break
        }
        'devprojex;help;completion' {
            break
        }
        'devprojex;help;man' {
            break
        }
        'devprojex;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

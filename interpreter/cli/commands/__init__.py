"""The commands of `referee`, one module per command or small family (check; play and replay;
simulate and bench; analyze and tournament; verify; compile and rulebook; lsp). Each is
imported only when its command runs: arguments.COMMANDS names each command's function."""

# zsh -f zsh_completion_probe.zsh FOLDER LINE OUT: what zsh's completion system offers for LINE (Tab at its end),
# with _newsstand from FOLDER, appended to OUT one per line. An interactive zsh runs in a pty;
# every candidate passed to compadd is recorded; the run ends when a marker the shell computes
# comes back, so nothing here waits for a time.
zmodload zsh/zpty
zpty -b probe 'zsh -f -i'
zpty -w probe "PS1=''; PROMPT=''; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w probe "compadd() { local -a __hits; builtin compadd -O __hits \"\$@\"; print -rl -- \"\${__hits[@]}\" >> ${(q)3}; builtin compadd \"\$@\"; }"
zpty -w probe "print -r -- \$(( 6 * 7 ))-ready"
zpty -r probe output '*42-ready*'
zpty -w -n probe "$2"$'\t'
zpty -w probe $'\C-e\C-u'"print -r -- \$(( 6 * 7 ))-completed"
zpty -r probe output '*42-completed*'
zpty -d probe

"""A contextual lexer that builds almost nothing: Lark's ContextualLexer, tokens the same.

Lark's ContextualLexer gives every parser state its own scanner, one regular expression over
the terminals the state accepts, built the first time the state is met (a rules file meets ~70
of them, ~0.5 ms each), and loading the tables makes a lexer object for each of the 550 states.
This lexer scans with the one scanner over all terminals (Lark's root lexer, which the
ContextualLexer keeps for its error messages) and takes its token whenever it is the very token
the state's own scanner would find; otherwise, and for every error, it asks the state's own
lexer, built then, as Lark would have.

Why the root's token is the state's. Both scanners are an alternation of their terminals in one
order (Lark sorts terminals by priority, width, length and name), and an alternation picks the
first alternative that matches here. Keywords are no alternatives of the root scanner: NAME
finds `if`, then a callback retypes it IF. Say the root scanner finds terminal `a`:
- if the state's scanner has `a` too, it finds `a`, with the same text, unless one of its
  alternatives before `a` matches here. Those the root tried before `a` did not match; the
  others (keywords the state does not fold, as it accepts no NAME) are tried here, each on
  its own. The state retypes `a` as the root does when the root's type is one the state
  accepts (it folds exactly the keywords it accepts), else with the first keyword of the
  root's it accepts that is this text, or not at all;
- if the state has no `a` but the root retyped it to a keyword that the state's scanner has as
  an alternative of its own (`in` where only IN may come), the state finds that keyword unless
  one of its alternatives before it matches here: those the root did not try before `a` (its
  own keywords, and root alternatives after `a`, such as whitespace) are tried one by one.
Any other case goes to the state's own lexer.

It uses Lark's lexer classes from the inside (their scanners, callbacks and the text slices of
Lark 1.3): tests/test_lexer.py compares it with Lark's own on every file, which tells when a
new Lark changes them.
"""
from __future__ import annotations

from copy import copy
from typing import Dict, FrozenSet, Iterator, Optional, Tuple

from . import lark_loaded  # noqa: F401  (first: Lark without the modules it would import for nothing)
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.lexer import BasicLexer, ContextualLexer, LexerState, Token, UnlessCallback

# the root's token cannot be trusted in this state: ask the state's own lexer
NO_PLAN = None


class RootFirstLexer(ContextualLexer):
    """Lark's ContextualLexer (same tokens, same errors), scanning with its root scanner first.
    Lark takes it as a plugin: `Lark(..., _plugins=PLUGINS)`, `Lark._load(..., _plugins=PLUGINS)`."""

    def __init__(self, conf, states: Dict[int, list], always_accept=()) -> None:
        # (not ContextualLexer.__init__: it makes every state's lexer)
        self.conf = conf
        extra = set(conf.ignore) | set(always_accept)
        self.accepts = {state: frozenset(accepts) | extra for state, accepts in states.items()}
        self.terminals_by_name = conf.terminals_by_name
        self.lexers: Dict[int, BasicLexer] = {}          # state -> its own lexer, made when first needed
        self.lexers_by_accepts: Dict[FrozenSet[str], BasicLexer] = {}
        root_conf = copy(conf)
        root_conf.terminals = list(conf.terminals)
        self.root_lexer = BasicLexer(root_conf)         # (checks every terminal, unless loaded from tables)
        self.root_scanner = self.root_lexer.scanner
        self.order = {t.name: i for i, t in enumerate(self.root_lexer.terminals)}
        root_alternatives = [t.name for t in self.root_scanner.terminals]
        self.tried_before = {name: frozenset(root_alternatives[:i]) for i, name in enumerate(root_alternatives)}
        self.folded_into = self.folded_keywords()
        self.keywords_by_text = self.plain_keywords()
        self.patterns = {}                              # terminal -> its own compiled pattern
        self.plans: Dict[Tuple[int, str, str], Optional[tuple]] = {}
        self.alternatives: Dict[FrozenSet[str], list] = {}

    def folded_keywords(self) -> Dict[str, FrozenSet[str]]:
        """keyword -> the patterns of the root scanner that find it and retype it (the keywords
        that are no alternatives of the root scanner)."""
        folded: Dict[str, set] = {}
        for pattern_name, callback in self.root_lexer.callback.items():
            if not isinstance(callback, UnlessCallback):
                continue
            pattern = self.terminals_by_name[pattern_name].pattern
            for keyword in callback.scanner.terminals:
                # Lark folds a keyword into a pattern only when its flags are the pattern's too
                if keyword.pattern.flags <= pattern.flags:
                    folded.setdefault(keyword.name, set()).add(pattern_name)
        return {keyword: frozenset(patterns) for keyword, patterns in folded.items()}

    def plain_keywords(self) -> Dict[str, Dict[str, list]]:
        """pattern -> {text: the keywords of its callback that are this text, in their order},
        for the patterns whose keywords are all plain strings: a dictionary retypes as the
        callback does (the first of its keywords that matches the whole text), faster."""
        plain = {}
        for pattern_name, callback in self.root_lexer.callback.items():
            keywords = getattr(callback, "scanner", None) and callback.scanner.terminals
            if not isinstance(callback, UnlessCallback) or not all(
                    k.pattern.type == "str" and not k.pattern.flags for k in keywords):
                continue
            by_text: Dict[str, list] = {}
            for keyword in keywords:
                by_text.setdefault(keyword.pattern.value, []).append(keyword.name)
            plain[pattern_name] = by_text
        return plain

    def state_alternatives(self, accepted: FrozenSet[str]) -> list:
        """The alternatives of the scanner of a state accepting `accepted`, in their order."""
        alternatives = self.alternatives.get(accepted)
        if alternatives is None:
            alternatives = self.alternatives[accepted] = sorted(
                (name for name in accepted if name in self.order
                 and not (self.folded_into.get(name, frozenset()) & accepted)), key=self.order.__getitem__)
        return alternatives

    def plan(self, state: int, found: str, retyped: str) -> Optional[tuple]:
        """When the root scanner finds `found` (retyped `retyped`) here: (the patterns to try, each
        of which would make the state's scanner find something else (module doc), whether the
        state retypes the token otherwise than the root), or NO_PLAN."""
        accepted = self.accepts[state]
        if self.conf.callbacks:
            return NO_PLAN          # callbacks of the user's may retype tokens: the argument does not hold
        alternatives = self.state_alternatives(accepted)
        if found in alternatives:
            chosen = found
        elif retyped != found and retyped in alternatives:
            chosen = retyped                    # a keyword the state has as an alternative of its own
        else:
            return NO_PLAN
        tried = self.tried_before[found]
        earlier = alternatives[:alternatives.index(chosen)]
        return tuple(self.pattern(name) for name in earlier if name not in tried), retyped not in accepted

    def state_type(self, accepted: FrozenSet[str], found: str, value: str) -> str:
        """The type the state's callback gives a `found` token: the first keyword of the root's
        callback that the state accepts and that is this very text (the state folds only those)."""
        if found in self.keywords_by_text:
            keywords = self.keywords_by_text[found].get(value, ())
        else:
            keywords = [k.name for k in self.root_lexer.callback[found].scanner.terminals
                        if self.pattern(k.name).fullmatch(value)]
        return next((keyword for keyword in keywords if keyword in accepted), found)

    def pattern(self, name: str):
        compiled = self.patterns.get(name)
        if compiled is None:
            regexp = self.terminals_by_name[name].pattern.to_regexp()
            compiled = self.patterns[name] = self.conf.re_module.compile(regexp, self.conf.g_regex_flags)
        return compiled

    def state_lexer(self, state: int) -> BasicLexer:
        """The state's own lexer, as Lark's ContextualLexer makes it."""
        lexer = self.lexers.get(state)
        if lexer is None:
            accepted = self.accepts[state]
            lexer = self.lexers_by_accepts.get(accepted)
            if lexer is None:
                state_conf = copy(self.conf)
                state_conf.terminals = [self.terminals_by_name[n] for n in accepted if n in self.terminals_by_name]
                state_conf.skip_validation = True          # the root lexer checked every terminal
                lexer = self.lexers_by_accepts[accepted] = BasicLexer(state_conf)
            self.lexers[state] = lexer
        return lexer

    def next_token(self, lex_state: LexerState, parser_state) -> Token:
        """BasicLexer.next_token with the root's scanner, handing over to the state's own lexer
        at the first place where the root's token may not be the state's."""
        root = self.root_lexer
        callbacks, keywords_by_text, plans = root.callback, self.keywords_by_text, self.plans
        state = parser_state.position
        line_ctr = lex_state.line_ctr
        text = lex_state.text
        while line_ctr.char_pos < text.end:
            position = line_ctr.char_pos
            found = self.root_scanner.match(text, position)
            if not found:
                return self.state_lexer(state).next_token(lex_state, parser_state)
            value, type_ = found
            token = None
            retyped = type_
            if type_ in keywords_by_text:               # a keyword found as a name
                same_text = keywords_by_text[type_].get(value)
                if same_text:
                    retyped = same_text[0]
            elif type_ in callbacks:
                token = callbacks[type_](Token(type_, value, position, line_ctr.line, line_ctr.column))
                retyped = token.type
            key = (state, type_, retyped)
            plan = plans[key] if key in plans else plans.setdefault(key, self.plan(*key))
            if plan is NO_PLAN:
                return self.state_lexer(state).next_token(lex_state, parser_state)
            checks, state_retypes = plan
            if checks and any(pattern.match(text.text, position, text.end) for pattern in checks):
                return self.state_lexer(state).next_token(lex_state, parser_state)
            ignored = type_ in root.ignore_types
            if not ignored and token is None:
                token = Token(retyped, value, position, line_ctr.line, line_ctr.column)
            line_ctr.feed(value, type_ in root.newline_types)
            if ignored:
                continue
            if state_retypes:
                token.type = self.state_type(self.accepts[state], type_, value)
            token.end_line, token.end_column, token.end_pos = line_ctr.line, line_ctr.column, line_ctr.char_pos
            lex_state.last_token = token
            return token
        raise EOFError(self)

    def lex(self, lexer_state: LexerState, parser_state) -> Iterator[Token]:
        """ContextualLexer.lex, with this lexer's next_token."""
        try:
            while True:
                yield self.next_token(lexer_state, parser_state)
        except EOFError:
            pass
        except UnexpectedCharacters as error:
            # as Lark: a character the state does not expect may start a token of another state
            try:
                last_token = lexer_state.last_token
                token = self.root_lexer.next_token(lexer_state, parser_state)
                raise UnexpectedToken(token, error.allowed, state=parser_state, token_history=[last_token],
                                      terminals_by_name=self.root_lexer.terminals_by_name)
            except UnexpectedCharacters:
                raise error


PLUGINS = {"ContextualLexer": RootFirstLexer}

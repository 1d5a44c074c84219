// Package mistakes holds directives, right and wrong, for the directive analyzer.
package mistakes

func bad() {}

func right() {
	bad() //idemlint:ignore keyinloop the provider dedupes on the order id
	//idemlint:ignore keyinloop,notimeout the next line is fine too
	bad()
	bad() //idemlint:ignore all every check agrees
	bad() //idemlint:ignore nojitter,nestedretry,unkeyedretry each check by name
}

//idemlint:ignore keyinloop the whole function is an exception
func wholeFunction() {}

func noReason() {
	//idemlint:ignore keyinloop
	bad()
}

func misspeltName() {
	//idemlint:ignore keyinlop the key is stable // want `idemlint:ignore names "keyinlop", which is not a check, so it suppresses nothing: did you mean keyinloop\?`
	bad()
	//idemlint:ignore notimout,keyinloop the request is bounded // want `idemlint:ignore names "notimout", which is not a check, so it suppresses nothing: did you mean notimeout\?`
	bad()
}

func unknownName() {
	//idemlint:ignore frobnicate because // want `idemlint:ignore names "frobnicate", which is not a check, so it suppresses nothing \(the checks: keyinloop, notimeout, nojitter, nestedretry, unkeyedretry, or all\)`
	bad()
}

func spaced() {
	// idemlint:ignore keyinloop the key is stable // want `"// idemlint:ignore" is an ordinary comment, so it suppresses nothing: write //idemlint:ignore, with no space after //`
	bad()
}

func misspeltWord() {
	//idemlint:ingore keyinloop the key is stable // want `//idemlint:ingore is not an idemlint directive, so it does nothing: did you mean //idemlint:ignore\?`
	bad()
	//idemlint:IGNORE keyinloop the key is stable // want `//idemlint:IGNORE is not an idemlint directive, so it does nothing: did you mean //idemlint:ignore\?`
	bad()
	// idemlint:ingore keyinloop spaced and misspelt // want `"// idemlint:ingore" is not an idemlint directive, and with a space after // it is an ordinary comment: did you mean //idemlint:ignore\?`
	bad()
}

func unknownWord() {
	//idemlint:nolint everything // want `//idemlint:nolint is not an idemlint directive, so it does nothing \(the directive is //idemlint:ignore NAME reason\)`
	bad()
}

func prose() {
	// The idemlint:ignore directive is explained in the README; this is not one.
	bad()
	// idemlint: a tool's name followed by a colon is prose too.
	// idemlint:maybe later, spaced and nothing like a directive word, is prose.
	bad()
}

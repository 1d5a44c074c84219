package directives

func bad() {}

func plain() {
	bad() // want `call of bad`
}

func sameLine() {
	bad() //idemlint:ignore keyinloop this call is fine here
}

func lineAbove() {
	//idemlint:ignore keyinloop,notimeout the next line is fine too
	bad()
	bad() // want `call of bad`
}

func otherAnalyzer() {
	bad() //idemlint:ignore notimeout not for keyinloop // want `call of bad`
}

func plannedAnalyzer() {
	bad() //idemlint:ignore nojitter a check not built yet is a name, not a mistake // want `call of bad`
}

func all() {
	bad() //idemlint:ignore all every analyzer agrees
}

//idemlint:ignore keyinloop the whole function is an exception
func wholeFunction() {
	bad()
	bad()
}

func noReason() {
	//idemlint:ignore keyinloop
	bad() // want `call of bad`
}

func misspelt() {
	//idemlint:ignore keyinlop the key is stable // want `idemlint:ignore names "keyinlop", which is not an analyzer, so it suppresses nothing: did you mean keyinloop\?`
	bad() // want `call of bad`
}

func misspeltOther() {
	// Reported by notimeout, the check it misspells, not by this one.
	//idemlint:ignore notimout,keyinloop the request is bounded by the caller
	bad()
}

func unknown() {
	//idemlint:ignore frobnicate because // want `idemlint:ignore names "frobnicate", which is not an analyzer, so it suppresses nothing \(the analyzers: keyinloop, notimeout, nojitter, nestedretry, unkeyedretry, or all\)`
	bad() // want `call of bad`
}

func spaced() {
	// idemlint:ignore keyinloop the key is stable // want `"// idemlint:ignore" is an ordinary comment, so it suppresses nothing: write //idemlint:ignore, with no space after //`
	bad() // want `call of bad`
}

func spacedOther() {
	// idemlint:ignore notimeout reported by notimeout only
	bad() // want `call of bad`
}

func prose() {
	// The idemlint:ignore directive is explained in the README; this is not one.
	bad() // want `call of bad`
}

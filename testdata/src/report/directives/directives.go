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
	//idemlint:ignore keyinlop the key is stable
	bad() // want `call of bad`
}

func misspeltOther() {
	// The misspelt name does not stop the other one from counting.
	//idemlint:ignore notimout,keyinloop the request is bounded by the caller
	bad()
}

func unknown() {
	//idemlint:ignore frobnicate because
	bad() // want `call of bad`
}

func spaced() {
	// idemlint:ignore keyinloop the key is stable
	bad() // want `call of bad`
}

func misspeltWord() {
	//idemlint:ingore keyinloop the key is stable
	bad() // want `call of bad`
}

func prose() {
	// The idemlint:ignore directive is explained in the README; this is not one.
	bad() // want `call of bad`
}

package directives

func bad() {}

func plain() {
	bad() // want `call of bad`
}

func sameLine() {
	bad() //idemlint:ignore demo this call is fine here
}

func lineAbove() {
	//idemlint:ignore demo,other the next line is fine too
	bad()
	bad() // want `call of bad`
}

func otherAnalyzer() {
	bad() //idemlint:ignore other not for demo // want `call of bad`
}

func all() {
	bad() //idemlint:ignore all every analyzer agrees
}

//idemlint:ignore demo the whole function is an exception
func wholeFunction() {
	bad()
	bad()
}

func noReason() {
	//idemlint:ignore demo
	bad() // want `call of bad`
}

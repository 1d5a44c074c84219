package knowledge

// matryer/try: Do(fn) calls fn(attempt) until it returns a nil error or retry false, at most
// MaxRetries times (a package variable, 10 unless the program sets it). It never waits itself:
// the callback sleeps as it likes before it says go on, which this table does not judge.
var Try = &Library{
	CapHint: "return retry false once attempt passes a few", DeadlineHint: "check %s.Err() in the callback",
	Name:  "matryer/try",
	Paths: []string{"github.com/matryer/try", "gopkg.in/matryer/try.v1"},
	Helpers: []Entry{
		{Names: []string{"Do"}, Arg: 0, Ctx: -1},
	},
	Defaults: Summary{*AtMost(10), WaitUnknown, DeadlineNone},
	Settings: map[string]Option{
		"MaxRetries": {Layer: 1, Attempts: AttemptsOf(0)},
	},
}

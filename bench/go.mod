module github.com/idemlint/idemlint/bench

go 1.26.0

replace github.com/idemlint/idemlint => ../

require (
	github.com/avast/retry-go/v4 v4.7.0
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/idemlint/idemlint v0.0.0-00010101000000-000000000000
	github.com/sethvargo/go-retry v0.5.0
)

// Package depmap is idemlint's map of a package's outbound dependencies: for each entry point
// (main, init, an HTTP handler, a framework's activity, handler or reconciler, an exported
// function, a function handed out as a value), the remote calls it reaches and the retry
// layers on the way to each one. It reports nothing unless asked: `idemlint map` runs it with
// -depmap.report and draws the page from what it reports.
//
// # Analyzer depmap
//
// depmap: map each entry point's paths to the remote calls it reaches, with the retry layers on each path
//
// A path is a chain of static calls from an entry point to a call that leaves the process (the
// remote model's calls), through the package's functions, the closures they make, and the
// functions of other packages (through a fact on each function that reaches a remote call).
// The layers on a path are the retry scopes of the retryscope model around each call on it that
// retry that call's failure (the scopes nestedretry counts): hand-written loops, retry
// libraries' callbacks, self-retrying clients, and the redeliveries of frameworks. A path's
// worst case is the product of its layers' attempts (retryscope.Product), as nestedretry
// computes it.
//
// Dependencies are named as a person would: the host of a constant URL, the SDK and service
// ("AWS s3", "Cloud Storage"), the gRPC service, the SQL database and its package; otherwise
// the kind of call and the package that makes it.
//
// A call of a method of an interface the package declares goes on into the package's own
// types that implement it. Not followed: calls through other packages' interfaces and through
// function values (a path stops there). Goroutines are followed as if called.
//
// With -depmap.report, it reports at each entry point of the package a diagnostic whose
// message is "depmap " followed by the entry and its paths as JSON; idemlint map reads them.
package depmap

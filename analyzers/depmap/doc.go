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
// A path is a chain of calls from an entry point to a call that leaves the process (the remote
// model's calls): static calls, closures called in place or handed to a call (a retry helper's
// callback), methods of the package's own types behind an interface the package declares,
// and functions of other packages (through a fact on each exported function that reaches a
// remote call). Other packages' interfaces and function-valued fields stop a path.
//
// The layers on a path are the retry scopes of the retryscope model around each call on it
// that retry that call's failure: hand-written loops, retry libraries' callbacks,
// self-retrying clients, and the redeliveries of frameworks. A path's worst case is, for each
// kind of failure, the product of the attempts of the layers that retry it
// (retryscope.Product: nestedretry's figure), and the worst of those; its longest wait adds
// up the attempts' timeouts and the waits between them when constants give them.
//
// Dependencies are named as a person would: the host of a constant URL or of a field's
// default, the SDK and service ("AWS s3", "Cloud Storage"), the gRPC service, the SQL
// package; otherwise the kind of call and the package that makes it.
//
// With -depmap.report, it reports at each entry point of the package a diagnostic whose
// message is "depmap " followed by the entry and its paths as JSON; idemlint map reads them.
package depmap

// Package mappage holds what `idemlint map` knows about a module's outbound dependencies
// (the Map, also its JSON form) and renders it as a self-contained HTML page.
package mappage

// A Map is every outbound dependency the remote model sees in the packages analysed, with the
// paths that reach it from the packages' entry points and the retry layers on each path.
type Map struct {
	Packages     []string     `json:"packages"` // the patterns analysed
	Dependencies []Dependency `json:"dependencies"`
}

// A Dependency is one remote service, named as a person would: the host of a constant URL,
// the SDK and service ("AWS s3"), "SQL database via database/sql", "gRPC payments.v1.Payments".
type Dependency struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // HTTP, gRPC, SQL, SDK, dial
	// Calls is the number of distinct places that call it.
	Calls int `json:"calls"`
	// Worst is the worst case over its paths: the most calls per logical request.
	Worst Worst  `json:"worst"`
	Paths []Path `json:"paths"`
}

// Worst is the worst case of a path (or of a dependency, over its paths).
type Worst struct {
	// Calls is the number of calls one logical request can make through the path: the product
	// of its layers' attempts, "unbounded" where a layer has no cap (and no deadline), "unknown"
	// where a layer's cap is a run-time value or unknown.
	Calls string `json:"calls"`
	// N is Calls as a number, when it is one.
	N int `json:"n,omitempty"`
	// Timeout is what bounds one attempt: "http.Client.Timeout", "context.WithTimeout",
	// "caller's context", "none".
	Timeout string `json:"timeout"`
	// Time is the longest one request can wait on the path: each attempt's timeout and each
	// wait between attempts, times the attempts ("2m15s"), when all are constants the model
	// knows; "unbounded" when an attempt can hang (no timeout) or the attempts never stop;
	// "caller's deadline" when nothing else is known to end it but the caller's context;
	// "unknown" otherwise.
	Time string `json:"time"`
}

// A Path is one way from an entry point to a call of the dependency.
type Path struct {
	Entry Func `json:"entry"`
	// Steps are the functions from the entry to the one that makes the call, both included.
	Steps []Func `json:"steps"`
	// Call is the remote call itself ("http.Client.Do", "sql.DB.QueryContext").
	Call Site `json:"call"`
	// Method is the HTTP method when the model can tell it.
	Method string `json:"method,omitempty"`
	// Key says whether the request carries an idempotency key: "sent", "none" for a request
	// that changes state (POST, PATCH) without one, "" where it does not apply.
	Key string `json:"key,omitempty"`
	// Also are the other entry points that reach the same call through the same layers (the
	// hundred methods of an SDK that all send through one helper): the same path for the map.
	Also []Func `json:"also,omitempty"`
	// Layers are the retry layers on the path, outermost first.
	Layers   []Layer   `json:"layers"`
	Worst    Worst     `json:"worst"`
	Findings []Finding `json:"findings,omitempty"`
}

// A Func is a function on a path.
type Func struct {
	Name string `json:"name"` // package-qualified: "shop.Checkout", "shop.(*Client).charge"
	// Kind says, for an entry, why it is one: "main", "init", "HTTP handler", "exported",
	// "function value", "activity", "message handler", "reconciler"; for a step, "runs later"
	// when it is a closure the previous step makes and keeps (a dialer, a hook) rather than
	// calls; "" for other steps.
	Kind string `json:"kind,omitempty"`
	Posn string `json:"posn"`
	// Call is where it calls the next step, or makes the remote call for the last step.
	Call string `json:"call,omitempty"`
}

// A Site is a call.
type Site struct {
	Name string `json:"name"`
	Posn string `json:"posn"`
}

// A Layer is one retry layer on a path.
type Layer struct {
	// Kind is the family of layer: "hand loop", "library", "self-retrying client",
	// "framework redelivery".
	Kind string `json:"kind"`
	// Scope is the model's name for it: "retry loop", "retry callback", "message handler".
	Scope string `json:"scope"`
	// Name is how messages name it: "the retry loop", "retry.Do", "the SQS handler loop".
	Name string `json:"name"`
	Posn string `json:"posn"`
	// Attempts is the cap: a number, "unbounded", "variable" or "unknown"; N the number.
	Attempts string `json:"attempts"`
	N        int    `json:"n,omitempty"`
	Wait     string `json:"wait"`     // none, fixed, backoff, jittered, unknown
	Deadline string `json:"deadline"` // none, context, elapsed, unknown
	// Framework names the framework of a redelivery ("Temporal", "Pub/Sub").
	Framework string `json:"framework,omitempty"`
}

// A Finding is a check's diagnostic at a place on the path.
type Finding struct {
	Check   string `json:"check"`
	Posn    string `json:"posn"`
	Message string `json:"message"`
	URL     string `json:"url"`
	// Related are the other places the finding involves (the calls a client without a timeout
	// sends through, the retry scope around a request); a finding is on a path when it or one
	// of them is at a place on the path.
	Related []string `json:"related,omitempty"`
}

// A Reached is one path with the dependency it reaches: what the depmap analyzer reports at
// an entry point (a list of them, as JSON), and what the map command groups by dependency.
type Reached struct {
	Dep  string `json:"dep"`
	Kind string `json:"kind"`
	Path Path   `json:"path"`
}

package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

// Frameworks that run functions of the program and run them again when they fail: workflow
// activities, handlers of redelivered messages, Kubernetes reconcilers. One execution of the
// function (or of the body of a loop over deliveries) is one attempt; there is no statement
// before the first one. Each framework is data: how the model finds the code it runs, its
// defaults, the options it reads where they are in view (with the libraries' engine), and the
// stable identity of what it delivers. retryscope's frameworkscopes.go reads the table; one file per
// framework (a family: Temporal and Cadence share workflows.go, Kafka's clients kafka.go). Sources: the
// research notes' frameworks.md (sections cited per entry).

// A FrameworkKind is how a framework runs the program's functions again.
type FrameworkKind uint8

const (
	Activities  FrameworkKind = iota + 1 // workflow activities, retried by the workflow engine
	Handlers                             // handlers of messages or tasks, delivered again
	Reconcilers                          // Kubernetes reconcilers, requeued
)

// A Framework is one framework, or one family of its versions.
type Framework struct {
	Name string // "Temporal", for summaries
	Noun string // how messages name its scopes: "activity", "Pub/Sub handler"
	Kind FrameworkKind
	// Library holds its packages, its defaults when no options are in view, and the settings
	// of the options it reads, applied by the libraries' engine (retryscope's settings.go).
	Library *Library
	// Registers are calls that hand it a function (arg), or a struct pointer whose exported
	// methods returning an error it runs, or a map of them (RegisterTasks).
	Registers []Entry
	// Runs are calls that run a function (arg) with options in view (config, from the
	// library's settings; over: the defaults when such a call is seen).
	Runs []Entry
	// Shapes are the signatures of functions it runs, wherever they are registered.
	Shapes []Shape
	// Marks are functions that work only inside a function it runs, given that function's
	// context (activity.GetLogger(ctx)): a function passing its own context parameter to one
	// is one it runs, even when another package registers it.
	Marks []flow.FuncID
	// Deliveries are the types of what it delivers that only consumers receive (an SQS
	// message, an AMQP delivery): a function with a parameter of one, or a loop ranging over
	// or receiving them, handles one delivery per execution.
	Deliveries []string
	// Receives are calls that return one delivery (kafka-go's FetchMessage): the innermost
	// loop around one handles a delivery per iteration.
	Receives []Entry
	// Requeues, when set, are the calls without which it does not deliver again: RabbitMQ
	// redelivers a message only when it is nacked or rejected with requeue (arg, not the
	// constant false).
	Requeues []Entry
	// Identities are the stable identities of what it delivers, by the type of the variable
	// they are computed from.
	Identities []Identity
	// Fetch, for an identity of kind fetched: the call that fills the object (arg).
	Fetch *Entry
	// AtOnce are the calls that hand a delivery back to be delivered again at once: arg is
	// the requeue flag, which must be the constant true, or -1 when the call always does. An
	// entry with a path is of that package (a legacy API beside the library's paths).
	AtOnce []Entry
	// Settles are the calls that settle a delivery (ack it, or end it for good): a test one
	// of whose sides settles and the other hands back is the handling's outcome.
	Settles []Entry
	// Later names the call that hands a delivery back after a delay, where there is one.
	Later string
}

// A Shape is the signature of a function a framework runs. Types are written "context.Context",
// "error", or "pkg/path.Name" with a leading "*" for a pointer.
type Shape struct {
	Method  string // the method's name; "" for any function or method
	Params  []string
	Results []string
}

// An Identity is how to derive a key from what stays the same across a framework's executions.
type Identity struct {
	What    string   // for messages
	Of      string   // the type of the variable it is computed from (as in a shape)
	Fetched bool     // the variable is the object the framework's fetch call fills
	Expr    string   // Go expression: $v for the variable, {name} for an import; "" when none is safe
	Imports []string // import paths used in expr, named {name} by their last element
}

// Frameworks are the frameworks the model knows.
var Frameworks = []*Framework{
	Temporal, Cadence,
	PubSub, SQSConsumer, SaramaConsumer, KafkaGoReader, JetStream, RabbitMQ,
	Asynq, Machinery,
	ControllerRuntime,
}

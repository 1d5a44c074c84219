package retryscope

import (
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// Frameworks that run functions of the program and run them again when they fail: workflow
// activities, handlers of redelivered messages, Kubernetes reconcilers. One execution of the
// function (or of the body of a loop over deliveries) is one attempt; there is no statement
// before the first one. Each framework is data: how the model finds the code it runs, its
// defaults, the options it reads where they are in view (with the libraries' engine), and the
// stable identity of what it delivers. frameworkscopes.go reads the table. Sources: the
// research notes' frameworks.md (sections cited per entry).

// A framework is one framework, or one family of its versions.
type framework struct {
	name string // "Temporal", for summaries
	noun string // how messages name its scopes: "activity", "Pub/Sub handler"
	kind Kind
	// lib holds its packages, its defaults when no options are in view, and the settings of
	// the options it reads, applied by the libraries' engine (settings.go).
	lib *library
	// registers are calls that hand it a function (arg), or a struct pointer whose exported
	// methods returning an error it runs, or a map of them (RegisterTasks).
	registers []entry
	// runs are calls that run a function (arg) with options in view (config, from the
	// library's settings; over: the defaults when such a call is seen).
	runs []entry
	// shapes are the signatures of functions it runs, wherever they are registered.
	shapes []shape
	// marks are functions that work only inside a function it runs, given that function's
	// context (activity.GetLogger(ctx)): a function passing its own context parameter to one
	// is one it runs, even when another package registers it.
	marks []flow.FuncID
	// deliveries are the types of what it delivers that only consumers receive (an SQS
	// message, an AMQP delivery): a function with a parameter of one, or a loop ranging over
	// or receiving them, handles one delivery per execution.
	deliveries []string
	// receives are calls that return one delivery (kafka-go's FetchMessage): the innermost
	// loop around one handles a delivery per iteration.
	receives []entry
	// requeues, when set, are the calls without which it does not deliver again: RabbitMQ
	// redelivers a message only when it is nacked or rejected with requeue (arg, not the
	// constant false).
	requeues []entry
	// identities are the stable identities of what it delivers, by the type of the variable
	// they are computed from.
	identities []identity
	// fetch, for an identity of kind fetched: the call that fills the object (arg).
	fetch *entry
	// atOnce are the calls that hand a delivery back to be delivered again at once: arg is
	// the requeue flag, which must be the constant true, or -1 when the call always does. An
	// entry with a path is of that package (a legacy API beside the library's paths).
	atOnce []entry
	// settles are the calls that settle a delivery (ack it, or end it for good): a test one
	// of whose sides settles and the other hands back is the handling's outcome.
	settles []entry
	// later names the call that hands a delivery back after a delay, where there is one.
	later string
}

// A shape is the signature of a function a framework runs. Types are written "context.Context",
// "error", or "pkg/path.Name" with a leading "*" for a pointer.
type shape struct {
	method  string // the method's name; "" for any function or method
	params  []string
	results []string
}

// An identity is how to derive a key from what stays the same across a framework's executions.
type identity struct {
	what    string   // for messages
	of      string   // the type of the variable it is computed from (as in a shape)
	fetched bool     // the variable is the object the framework's fetch call fills
	expr    string   // Go expression: $v for the variable, {name} for an import; "" when none is safe
	imports []string // import paths used in expr, named {name} by their last element
}

var frameworks = []*framework{
	temporal, cadence,
	pubsub, sqsConsumer, saramaConsumer, kafkaGoReader, jetStream, rabbitMQ,
	asynqHandler, machineryTask,
	controllerRuntime,
}

const (
	temporalInternal = "go.temporal.io/sdk/internal"
	cadenceInternal  = "go.uber.org/cadence/internal"
)

// Temporal (§2): activities retry by default, without a cap on attempts, until
// ScheduleToCloseTimeout (unlimited by default), with a backoff of 1 s doubling to 100 s. A
// RetryPolicy's MaximumAttempts counts attempts; 0 is unlimited and 1 disables retries. The
// options are set by the workflow that runs the activity: in view only where this package
// runs it with workflow.ExecuteActivity.
var temporal = &framework{
	name: "Temporal", noun: "activity", kind: Activity,
	lib: &library{Library: &knowledge.Library{
		Name:     "go.temporal.io/sdk",
		Paths:    []string{"go.temporal.io/sdk/worker", "go.temporal.io/sdk/workflow", "go.temporal.io/sdk/activity", "go.temporal.io/sdk/temporal", temporalInternal},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitBackoff, Deadline: DeadlineUnknown},
		Settings: activitySettings(knowledge.AttemptsOf(0).ZeroMeans(knowledge.Unbounded).NegativeMeans(knowledge.Unbounded)),
	}},
	registers: []entry{{Recv: "ActivityRegistry", Names: []string{"RegisterActivity", "RegisterActivityWithOptions"}, Arg: 0}},
	runs: []entry{{Names: []string{"ExecuteActivity", "ExecuteLocalActivity"}, Arg: 1, Config: []int{0}, Ctx: -1, Path: "go.temporal.io/sdk/workflow",
		Over: &summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitBackoff, Deadline: DeadlineNone}}},
	marks:      activityMarks("go.temporal.io/sdk/activity", "GetMetricsHandler", "GetClient"),
	identities: activityIdentity("go.temporal.io/sdk/activity"),
}

// Cadence (§3): activities do not retry without a RetryPolicy in their options; with one,
// MaximumAttempts counts attempts (0: until ExpirationInterval). Registered globally
// (activity.Register) or per worker. With the options out of view, the attempts are unknown.
var cadence = &framework{
	name: "Cadence", noun: "activity", kind: Activity,
	lib: &library{Library: &knowledge.Library{
		Name:     "go.uber.org/cadence",
		Paths:    []string{"go.uber.org/cadence/worker", "go.uber.org/cadence/workflow", "go.uber.org/cadence/activity", "go.uber.org/cadence", cadenceInternal},
		Defaults: summary{Attempts: Bound{Kind: BoundUnknown}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
		Settings: func() map[string]option {
			m := activitySettings(knowledge.AttemptsOf(0).ZeroMeans(knowledge.Unbounded))
			m["ActivityOptions.RetryPolicy"] = option{Layer: 0, Bound: knowledge.Unbounded, Wait: WaitBackoff}
			m["LocalActivityOptions.RetryPolicy"] = m["ActivityOptions.RetryPolicy"]
			m["RetryPolicy.ExpirationInterval"] = option{Layer: 1, Deadline: DeadlineElapsed, ZeroDeadline: knowledge.KeepDeadline}
			return m
		}(),
	}},
	registers: []entry{
		{Recv: "ActivityRegistry", Names: []string{"RegisterActivity", "RegisterActivityWithOptions"}, Arg: 0},
		{Names: []string{"Register", "RegisterWithOptions"}, Arg: 0, Path: "go.uber.org/cadence/activity"},
	},
	runs: []entry{{Names: []string{"ExecuteActivity", "ExecuteLocalActivity"}, Arg: 1, Config: []int{0}, Ctx: -1, Path: "go.uber.org/cadence/workflow",
		Over: &summary{Attempts: *knowledge.Once, Wait: WaitNone, Deadline: DeadlineNone}}},
	marks:      activityMarks("go.uber.org/cadence/activity", "GetMetricsScope"),
	identities: activityIdentity("go.uber.org/cadence/activity"),
}

// activitySettings are the activity options of Temporal and Cadence (same names): the
// RetryPolicy's attempts and the ScheduleToCloseTimeout, which bounds all attempts.
func activitySettings(attempts count) map[string]option {
	deadline := option{Layer: 1, Deadline: DeadlineElapsed, ZeroDeadline: knowledge.KeepDeadline}
	return map[string]option{
		"RetryPolicy.MaximumAttempts":                 {Layer: 1, Attempts: attempts},
		"ActivityOptions.ScheduleToCloseTimeout":      deadline,
		"LocalActivityOptions.ScheduleToCloseTimeout": deadline,
	}
}

// activityMarks: the activity package's functions that need an activity's context.
func activityMarks(path string, more ...string) []flow.FuncID {
	var out []flow.FuncID
	for _, n := range append([]string{"GetInfo", "GetLogger", "RecordHeartbeat", "HasHeartbeatDetails", "GetHeartbeatDetails", "GetWorkerStopChannel"}, more...) {
		out = append(out, flow.FuncID{Pkg: path, Name: n})
	}
	return out
}

// activityIdentity: the workflow ID and the activity ID, the same on every attempt of one
// activity (the attempt number and task token change).
func activityIdentity(path string) []identity {
	return []identity{{
		what:    "the workflow and activity IDs (activity.GetInfo(ctx))",
		of:      "context.Context",
		expr:    `{activity}.GetInfo($v).WorkflowExecution.ID + "/" + {activity}.GetInfo($v).ActivityID`,
		imports: []string{path},
	}}
}

// Google Cloud Pub/Sub v1 and v2 (§4): Receive's callback runs again for a message it nacks,
// or does not ack before the lease ends; no cap on deliveries without a dead-letter policy,
// and the wait is the subscription's retry policy. Message.ID is the same on every delivery.
var pubsub = &framework{
	name: "Pub/Sub", noun: "Pub/Sub handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "cloud.google.com/go/pubsub",
		Paths:    []string{"cloud.google.com/go/pubsub", "cloud.google.com/go/pubsub/v2"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
	}},
	registers: []entry{
		{Recv: "Subscription", Names: []string{"Receive"}, Arg: 1},
		{Recv: "Subscriber", Names: []string{"Receive"}, Arg: 1},
	},
	shapes: []shape{{params: []string{"context.Context", "*" + pubsubMessage}}},
	identities: []identity{{
		what: "the message ID (msg.ID)", of: "*" + pubsubMessage, expr: "$v.ID",
	}},
}

const pubsubMessage = "cloud.google.com/go/internal/pubsub.Message"

// AWS SQS (§5): a message not deleted within the visibility timeout (30 s by default) is
// received again, without a cap unless the queue has a redrive policy. MessageId is the same
// on every receive (the receipt handle is not). aws-sdk-go v2 and v1.
var sqsConsumer = &framework{
	name: "SQS", noun: "SQS handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "aws-sdk-go sqs",
		Paths:    []string{"github.com/aws/aws-sdk-go-v2/service/sqs/types", "github.com/aws/aws-sdk-go/service/sqs"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitFixed, Deadline: DeadlineUnknown},
	}},
	deliveries: []string{"github.com/aws/aws-sdk-go-v2/service/sqs/types.Message", "github.com/aws/aws-sdk-go/service/sqs.Message"},
	identities: []identity{
		{what: "the message ID (MessageId)", of: "github.com/aws/aws-sdk-go-v2/service/sqs/types.Message",
			expr: "{aws}.ToString($v.MessageId)", imports: []string{"github.com/aws/aws-sdk-go-v2/aws"}},
		{what: "the message ID (MessageId)", of: "*github.com/aws/aws-sdk-go-v2/service/sqs/types.Message",
			expr: "{aws}.ToString($v.MessageId)", imports: []string{"github.com/aws/aws-sdk-go-v2/aws"}},
		{what: "the message ID (MessageId)", of: "*github.com/aws/aws-sdk-go/service/sqs.Message",
			expr: "{aws}.StringValue($v.MessageId)", imports: []string{"github.com/aws/aws-sdk-go/aws"}},
	},
}

// Kafka through IBM/Shopify sarama (§6): messages whose offsets are not marked are delivered
// again after a rebalance or restart. Topic, partition and offset name one record.
var saramaConsumer = &framework{
	name: "Kafka", noun: "Kafka handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "IBM/sarama",
		Paths:    []string{"github.com/IBM/sarama", "github.com/Shopify/sarama"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
	}},
	deliveries: []string{"github.com/IBM/sarama.ConsumerMessage", "github.com/Shopify/sarama.ConsumerMessage"},
	identities: kafkaIdentity("*github.com/IBM/sarama.ConsumerMessage", "*github.com/Shopify/sarama.ConsumerMessage"),
}

// segmentio/kafka-go (§6): a message fetched with FetchMessage and not committed is
// delivered again. (ReadMessage commits before processing; its Message is also what a Writer
// writes, so only FetchMessage's result counts.)
var kafkaGoReader = &framework{
	name: "Kafka", noun: "Kafka handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "segmentio/kafka-go",
		Paths:    []string{"github.com/segmentio/kafka-go"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
	}},
	receives:   []entry{{Recv: "Reader", Names: []string{"FetchMessage"}}},
	identities: kafkaIdentity("github.com/segmentio/kafka-go.Message"),
}

func kafkaIdentity(types ...string) []identity {
	var out []identity
	for _, t := range types {
		out = append(out, identity{
			what: "the topic, partition and offset", of: t,
			expr: `{fmt}.Sprintf("%s/%d/%d", $v.Topic, $v.Partition, $v.Offset)`, imports: []string{"fmt"},
		})
	}
	return out
}

// NATS JetStream (§7): a message not acked within AckWait (30 s) is delivered again, without
// a cap by default (MaxDeliver -1). Its stream sequence is stable, but reading it
// (msg.Metadata()) returns an error too: no expression.
var jetStream = &framework{
	name: "JetStream", noun: "JetStream handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "nats.go/jetstream",
		Paths:    []string{"github.com/nats-io/nats.go/jetstream"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitFixed, Deadline: DeadlineUnknown},
	}},
	deliveries: []string{"github.com/nats-io/nats.go/jetstream.Msg"},
	identities: []identity{{what: "the message's stream sequence (msg.Metadata())", of: "github.com/nats-io/nats.go/jetstream.Msg"}},
	// Nak redelivers at once (the consumer's BackOff applies to AckWait only); the legacy
	// API's *nats.Msg has the same methods for JetStream messages.
	atOnce: []entry{
		{Recv: "Msg", Names: []string{"Nak"}, Arg: -1},
		{Recv: "Msg", Names: []string{"Nak"}, Arg: -1, Path: "github.com/nats-io/nats.go"},
	},
	settles: []entry{
		{Recv: "Msg", Names: []string{"Ack", "DoubleAck", "Term", "TermWithReason"}},
		{Recv: "Msg", Names: []string{"Ack", "AckSync", "Term", "TermWithReason"}, Path: "github.com/nats-io/nats.go"},
	},
	later: "NakWithDelay",
}

// RabbitMQ (§8): a delivery nacked or rejected with requeue goes back to the queue at once,
// without a cap. MessageId is set by the publisher, or empty: no expression.
var rabbitMQ = &framework{
	name: "RabbitMQ", noun: "RabbitMQ handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "rabbitmq/amqp091-go",
		Paths:    []string{"github.com/rabbitmq/amqp091-go", "github.com/streadway/amqp"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitNone, Deadline: DeadlineNone},
	}},
	deliveries: []string{"github.com/rabbitmq/amqp091-go.Delivery", "github.com/streadway/amqp.Delivery"},
	requeues: []entry{
		{Recv: "Delivery", Names: []string{"Nack"}, Arg: 1},
		{Recv: "Delivery", Names: []string{"Reject"}, Arg: 0},
	},
	atOnce: []entry{
		{Recv: "Delivery", Names: []string{"Nack"}, Arg: 1},
		{Recv: "Delivery", Names: []string{"Reject"}, Arg: 0},
		{Recv: "Channel", Names: []string{"Nack"}, Arg: 2},
		{Recv: "Channel", Names: []string{"Reject"}, Arg: 1},
	},
	settles: []entry{
		{Recv: "Delivery", Names: []string{"Ack"}},
		{Recv: "Channel", Names: []string{"Ack"}},
	},
	identities: []identity{
		{what: "the publisher's message ID (MessageId), when it sets one", of: "github.com/rabbitmq/amqp091-go.Delivery"},
		{what: "the publisher's message ID (MessageId), when it sets one", of: "github.com/streadway/amqp.Delivery"},
	},
}

// hibiken/asynq (§9): a handler returning an error runs again, 26 attempts by default, with
// a jittered delay (n⁴ + 15 + rand(30)·(n+1) s). The task ID is the same on every attempt.
var asynqHandler = &framework{
	name: "asynq", noun: "asynq task handler", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "hibiken/asynq",
		Paths:    []string{"github.com/hibiken/asynq"},
		Defaults: summary{Attempts: *knowledge.AtMost(26), Wait: WaitJittered, Deadline: DeadlineUnknown},
	}},
	shapes: []shape{{params: []string{"context.Context", "*github.com/hibiken/asynq.Task"}, results: []string{"error"}}},
	identities: []identity{{
		what: "the task ID", of: "*github.com/hibiken/asynq.Task", expr: "$v.ResultWriter().TaskID()",
	}},
}

// RichardKnop/machinery v1 and v2 (§10): a task runs again when its signature's RetryCount
// (set by the sender; 0 by default) allows, with a Fibonacci backoff, or without a cap when
// it returns ErrRetryTaskLater. The signature's UUID is stable; it comes from the context,
// maybe nil: no expression.
var machineryTask = &framework{
	name: "machinery", noun: "machinery task", kind: Handler,
	lib: &library{Library: &knowledge.Library{
		Name:     "RichardKnop/machinery",
		Paths:    []string{"github.com/RichardKnop/machinery/v1", "github.com/RichardKnop/machinery/v2"},
		Defaults: summary{Attempts: Bound{Kind: BoundUnknown}, Wait: WaitBackoff, Deadline: DeadlineUnknown},
	}},
	registers: []entry{
		{Recv: "Server", Names: []string{"RegisterTask"}, Arg: 1},
		{Recv: "Server", Names: []string{"RegisterTasks"}, Arg: 0},
	},
	identities: []identity{{what: "the task signature's UUID (tasks.SignatureFromContext(ctx))", of: "context.Context"}},
}

// controller-runtime (§11): Reconcile returning an error runs again with the controller's
// rate limiter (5 ms doubling to 1000 s, no jitter) without a cap, until it succeeds or
// returns a TerminalError. The request names the object only; its UID (and generation, the
// version of its spec) identify what to do.
var controllerRuntime = &framework{
	name: "controller-runtime", noun: "reconciler", kind: Reconciler,
	lib: &library{Library: &knowledge.Library{
		Name:     "sigs.k8s.io/controller-runtime",
		Paths:    []string{"sigs.k8s.io/controller-runtime/pkg/reconcile", "sigs.k8s.io/controller-runtime/pkg/client"},
		Defaults: summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitBackoff, Deadline: DeadlineNone},
	}},
	shapes: []shape{{
		params:  []string{"context.Context", "sigs.k8s.io/controller-runtime/pkg/reconcile.Request"},
		results: []string{"sigs.k8s.io/controller-runtime/pkg/reconcile.Result", "error"},
	}},
	fetch: &entry{Recv: "Reader", Names: []string{"Get"}, Arg: 2},
	identities: []identity{{
		what: "the object's UID and generation", fetched: true,
		expr: `{fmt}.Sprintf("%s/%d", $v.GetUID(), $v.GetGeneration())`, imports: []string{"fmt"},
	}},
}

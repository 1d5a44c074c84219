package knowledge

// NATS JetStream (§7): a message not acked within AckWait (30 s) is delivered again, without
// a cap by default (MaxDeliver -1). Its stream sequence is stable, but reading it
// (msg.Metadata()) returns an error too: no expression.
var JetStream = &Framework{
	Name: "JetStream", Noun: "JetStream handler", Kind: Handlers,
	Library: &Library{
		Name:     "nats.go/jetstream",
		Paths:    []string{"github.com/nats-io/nats.go/jetstream"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitFixed, Deadline: DeadlineUnknown},
	},
	Deliveries: []string{"github.com/nats-io/nats.go/jetstream.Msg"},
	Identities: []Identity{{What: "the message's stream sequence (msg.Metadata())", Of: "github.com/nats-io/nats.go/jetstream.Msg"}},
	// Nak redelivers at once (the consumer's BackOff applies to AckWait only); the legacy
	// API's *nats.Msg has the same methods for JetStream messages.
	AtOnce: []Entry{
		{Recv: "Msg", Names: []string{"Nak"}, Arg: -1},
		{Recv: "Msg", Names: []string{"Nak"}, Arg: -1, Path: "github.com/nats-io/nats.go"},
	},
	Settles: []Entry{
		{Recv: "Msg", Names: []string{"Ack", "DoubleAck", "Term", "TermWithReason"}},
		{Recv: "Msg", Names: []string{"Ack", "AckSync", "Term", "TermWithReason"}, Path: "github.com/nats-io/nats.go"},
	},
	Later: "NakWithDelay",
}

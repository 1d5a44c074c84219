package knowledge

// Google Cloud Pub/Sub v1 and v2 (§4): Receive's callback runs again for a message it nacks,
// or does not ack before the lease ends; no cap on deliveries without a dead-letter policy,
// and the wait is the subscription's retry policy. Message.ID is the same on every delivery.
var PubSub = &Framework{
	Name: "Pub/Sub", Noun: "Pub/Sub handler", Kind: Handlers,
	Library: &Library{
		Name:     "cloud.google.com/go/pubsub",
		Paths:    []string{"cloud.google.com/go/pubsub", "cloud.google.com/go/pubsub/v2"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
	},
	Registers: []Entry{
		{Recv: "Subscription", Names: []string{"Receive"}, Arg: 1},
		{Recv: "Subscriber", Names: []string{"Receive"}, Arg: 1},
	},
	Shapes: []Shape{{Params: []string{"context.Context", "*" + pubsubMessage}}},
	Identities: []Identity{{
		What: "the message ID (msg.ID)", Of: "*" + pubsubMessage, Expr: "$v.ID",
	}},
}

const pubsubMessage = "cloud.google.com/go/internal/pubsub.Message"

package knowledge

// RabbitMQ (§8): a delivery nacked or rejected with requeue goes back to the queue at once,
// without a cap. MessageId is set by the publisher, or empty: no expression.
var RabbitMQ = &Framework{
	Name: "RabbitMQ", Noun: "RabbitMQ handler", Kind: Handlers,
	Library: &Library{
		Name:     "rabbitmq/amqp091-go",
		Paths:    []string{"github.com/rabbitmq/amqp091-go", "github.com/streadway/amqp"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitNone, Deadline: DeadlineNone},
	},
	Deliveries: []string{"github.com/rabbitmq/amqp091-go.Delivery", "github.com/streadway/amqp.Delivery"},
	Requeues: []Entry{
		{Recv: "Delivery", Names: []string{"Nack"}, Arg: 1},
		{Recv: "Delivery", Names: []string{"Reject"}, Arg: 0},
	},
	AtOnce: []Entry{
		{Recv: "Delivery", Names: []string{"Nack"}, Arg: 1},
		{Recv: "Delivery", Names: []string{"Reject"}, Arg: 0},
		{Recv: "Channel", Names: []string{"Nack"}, Arg: 2},
		{Recv: "Channel", Names: []string{"Reject"}, Arg: 1},
	},
	Settles: []Entry{
		{Recv: "Delivery", Names: []string{"Ack"}},
		{Recv: "Channel", Names: []string{"Ack"}},
	},
	Identities: []Identity{
		{What: "the publisher's message ID (MessageId), when it sets one", Of: "github.com/rabbitmq/amqp091-go.Delivery"},
		{What: "the publisher's message ID (MessageId), when it sets one", Of: "github.com/streadway/amqp.Delivery"},
	},
}

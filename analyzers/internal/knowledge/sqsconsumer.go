package knowledge

// AWS SQS (§5): a message not deleted within the visibility timeout (30 s by default) is
// received again, without a cap unless the queue has a redrive policy. MessageId is the same
// on every receive (the receipt handle is not). aws-sdk-go v2 and v1.
var SQSConsumer = &Framework{
	Name: "SQS", Noun: "SQS handler", Kind: Handlers,
	Library: &Library{
		Name:     "aws-sdk-go sqs",
		Paths:    []string{"github.com/aws/aws-sdk-go-v2/service/sqs/types", "github.com/aws/aws-sdk-go/service/sqs"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitFixed, Deadline: DeadlineUnknown},
	},
	Deliveries: []string{"github.com/aws/aws-sdk-go-v2/service/sqs/types.Message", "github.com/aws/aws-sdk-go/service/sqs.Message"},
	Identities: []Identity{
		{What: "the message ID (MessageId)", Of: "github.com/aws/aws-sdk-go-v2/service/sqs/types.Message",
			Expr: "{aws}.ToString($v.MessageId)", Imports: []string{"github.com/aws/aws-sdk-go-v2/aws"}},
		{What: "the message ID (MessageId)", Of: "*github.com/aws/aws-sdk-go-v2/service/sqs/types.Message",
			Expr: "{aws}.ToString($v.MessageId)", Imports: []string{"github.com/aws/aws-sdk-go-v2/aws"}},
		{What: "the message ID (MessageId)", Of: "*github.com/aws/aws-sdk-go/service/sqs.Message",
			Expr: "{aws}.StringValue($v.MessageId)", Imports: []string{"github.com/aws/aws-sdk-go/aws"}},
	},
}

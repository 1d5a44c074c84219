package knowledge

// Kafka through IBM/Shopify sarama (§6): messages whose offsets are not marked are delivered
// again after a rebalance or restart. Topic, partition and offset name one record.
var SaramaConsumer = &Framework{
	Name: "Kafka", Noun: "Kafka handler", Kind: Handlers,
	Library: &Library{
		Name:     "IBM/sarama",
		Paths:    []string{"github.com/IBM/sarama", "github.com/Shopify/sarama"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
	},
	Deliveries: []string{"github.com/IBM/sarama.ConsumerMessage", "github.com/Shopify/sarama.ConsumerMessage"},
	Identities: kafkaIdentity("*github.com/IBM/sarama.ConsumerMessage", "*github.com/Shopify/sarama.ConsumerMessage"),
}

// segmentio/kafka-go (§6): a message fetched with FetchMessage and not committed is
// delivered again. (ReadMessage commits before processing; its Message is also what a Writer
// writes, so only FetchMessage's result counts.)
var KafkaGoReader = &Framework{
	Name: "Kafka", Noun: "Kafka handler", Kind: Handlers,
	Library: &Library{
		Name:     "segmentio/kafka-go",
		Paths:    []string{"github.com/segmentio/kafka-go"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
	},
	Receives:   []Entry{{Recv: "Reader", Names: []string{"FetchMessage"}}},
	Identities: kafkaIdentity("github.com/segmentio/kafka-go.Message"),
}

func kafkaIdentity(types ...string) []Identity {
	var out []Identity
	for _, t := range types {
		out = append(out, Identity{
			What: "the topic, partition and offset", Of: t,
			Expr: `{fmt}.Sprintf("%s/%d/%d", $v.Topic, $v.Partition, $v.Offset)`, Imports: []string{"fmt"},
		})
	}
	return out
}

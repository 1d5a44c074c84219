// Package sarama is a stub of github.com/IBM/sarama (v1.61.1, public signatures only).
package sarama

import (
	"context"
	"time"
)

type RecordHeader struct{ Key, Value []byte }

type ConsumerMessage struct {
	Headers        []*RecordHeader
	Timestamp      time.Time
	BlockTimestamp time.Time
	Key, Value     []byte
	Topic          string
	Partition      int32
	Offset         int64
}

type ConsumerGroupSession interface {
	Claims() map[string][]int32
	MemberID() string
	MarkMessage(msg *ConsumerMessage, metadata string)
	Commit()
	Context() context.Context
}

type ConsumerGroupClaim interface {
	Topic() string
	Partition() int32
	Messages() <-chan *ConsumerMessage
}

type ConsumerGroupHandler interface {
	Setup(ConsumerGroupSession) error
	Cleanup(ConsumerGroupSession) error
	ConsumeClaim(ConsumerGroupSession, ConsumerGroupClaim) error
}

type ConsumerGroup interface {
	Consume(ctx context.Context, topics []string, handler ConsumerGroupHandler) error
	Close() error
}

type ProducerMessage struct {
	Topic string
	Key   Encoder
	Value Encoder
}

type Encoder interface{ Encode() ([]byte, error) }

type SyncProducer interface {
	SendMessage(msg *ProducerMessage) (partition int32, offset int64, err error)
}

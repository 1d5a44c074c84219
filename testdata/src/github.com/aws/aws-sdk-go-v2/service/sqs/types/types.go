// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/sqs/types (v1.53.0).
package types

type Message struct {
	Attributes        map[string]string
	Body              *string
	MD5OfBody         *string
	MessageAttributes map[string]MessageAttributeValue
	MessageId         *string
	ReceiptHandle     *string
}

type MessageAttributeValue struct {
	DataType    *string
	StringValue *string
}

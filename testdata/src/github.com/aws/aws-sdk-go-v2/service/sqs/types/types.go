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

// ErrorFault stands in for smithy.ErrorFault.
type ErrorFault int

// QueueDoesNotExist is a modeled client fault: the queue does not exist.
type QueueDoesNotExist struct {
	Message           *string
	ErrorCodeOverride *string
}

func (e *QueueDoesNotExist) Error() string          { return e.ErrorCode() }
func (e *QueueDoesNotExist) ErrorCode() string      { return "QueueDoesNotExist" }
func (e *QueueDoesNotExist) ErrorMessage() string   { return "" }
func (e *QueueDoesNotExist) ErrorFault() ErrorFault { return 1 }

// OverLimit is a modeled client fault the standard retryer does not retry.
type OverLimit struct{ Message *string }

func (e *OverLimit) Error() string          { return e.ErrorCode() }
func (e *OverLimit) ErrorCode() string      { return "OverLimit" }
func (e *OverLimit) ErrorFault() ErrorFault { return 1 }

// RequestThrottled is a throttling code the standard retryer retries.
type RequestThrottled struct{ Message *string }

func (e *RequestThrottled) Error() string          { return e.ErrorCode() }
func (e *RequestThrottled) ErrorCode() string      { return "RequestThrottled" }
func (e *RequestThrottled) ErrorFault() ErrorFault { return 1 }

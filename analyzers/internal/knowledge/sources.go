package knowledge

import (
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Sources: functions that take the next item of a stream, a queue, a cursor or an iterator.
// A loop that calls one works through what arrives; it does not retry one operation.

// consumers are the methods (and functions) that take the next item of a source.
var consumers = map[flow.FuncID]bool{}

func consumer(pkg, recv string, names ...string) {
	for _, n := range names {
		consumers[flow.FuncID{Pkg: pkg, Recv: recv, Name: n}] = true
	}
}

func init() {
	// The standard library: readers, scanners, decoders, cursors.
	consumer("io", "Reader", "Read")
	consumer("io", "ByteReader", "ReadByte")
	consumer("io", "RuneReader", "ReadRune")
	consumer("bufio", "Reader", "Read", "ReadByte", "ReadBytes", "ReadLine", "ReadRune", "ReadSlice", "ReadString", "Peek")
	consumer("bufio", "Scanner", "Scan")
	consumer("encoding/json", "Decoder", "Decode", "Token")
	consumer("encoding/xml", "Decoder", "Decode", "Token", "RawToken")
	consumer("encoding/csv", "Reader", "Read")
	consumer("encoding/gob", "Decoder", "Decode")
	consumer("net/textproto", "Reader", "ReadLine", "ReadLineBytes", "ReadResponse", "ReadMIMEHeader", "ReadDotLines")
	consumer("net", "Conn", "Read")
	consumer("net", "TCPConn", "Read")
	consumer("net", "UDPConn", "Read", "ReadFrom", "ReadFromUDP", "ReadFromUDPAddrPort", "ReadMsgUDP", "ReadMsgUDPAddrPort")
	consumer("net", "PacketConn", "ReadFrom") // each call takes the next datagram
	consumer("net", "IPConn", "Read", "ReadFrom", "ReadFromIP", "ReadMsgIP")
	consumer("net", "UnixConn", "Read", "ReadFrom", "ReadFromUnix", "ReadMsgUnix")
	consumer("crypto/tls", "Conn", "Read")
	consumer("os", "File", "Read", "ReadDir", "Readdir", "Readdirnames")
	consumer("database/sql", "Rows", "Next", "NextResultSet")
	consumer("archive/tar", "Reader", "Next")
	consumer("archive/zip", "Reader", "Open")
	consumer("mime/multipart", "Reader", "NextPart", "NextRawPart")
	consumer("container/list", "List", "Front", "Back")
	consumer("iter", "", "Pull")
	consumer("log/syslog", "Writer", "Read")

	// Queues and streams.
	consumer("github.com/segmentio/kafka-go", "Reader", "ReadMessage", "FetchMessage")
	consumer("github.com/confluentinc/confluent-kafka-go/kafka", "Consumer", "ReadMessage", "Poll")
	consumer("github.com/confluentinc/confluent-kafka-go/v2/kafka", "Consumer", "ReadMessage", "Poll")
	consumer("github.com/twmb/franz-go/pkg/kgo", "Client", "PollFetches", "PollRecords")
	consumer("github.com/nats-io/nats.go", "Subscription", "NextMsg", "NextMsgWithContext", "Fetch", "FetchBatch")
	consumer("github.com/nats-io/nats.go/jetstream", "Consumer", "Next", "Fetch", "FetchNoWait", "FetchBytes")
	consumer("github.com/nats-io/nats.go/jetstream", "MessagesContext", "Next")
	consumer("github.com/aws/aws-sdk-go-v2/service/sqs", "Client", "ReceiveMessage")
	consumer("github.com/aws/aws-sdk-go/service/sqs", "SQS", "ReceiveMessage", "ReceiveMessageWithContext")
	consumer("github.com/redis/go-redis/v9", "PubSub", "Receive", "ReceiveMessage", "ReceiveTimeout")
	consumer("github.com/redis/go-redis/v9", "cmdable", "BLPop", "BRPop", "BLMove", "BRPopLPush", "BZPopMin", "BZPopMax", "XRead", "XReadGroup")
	consumer("github.com/go-redis/redis/v8", "PubSub", "Receive", "ReceiveMessage", "ReceiveTimeout")
	consumer("github.com/go-redis/redis/v8", "cmdable", "BLPop", "BRPop", "BLMove", "BRPopLPush", "XRead", "XReadGroup")
	consumer("github.com/jackc/pgx/v5", "Rows", "Next")
	consumer("github.com/jackc/pgx/v5/pgconn", "PgConn", "WaitForNotification", "ReceiveMessage") // the next message of a replication or COPY stream
	consumer("github.com/jackc/pgx/v5", "Conn", "WaitForNotification")
	consumer("github.com/rabbitmq/amqp091-go", "Channel", "Get")
	consumer("google.golang.org/grpc", "ClientStream", "RecvMsg")
	consumer("google.golang.org/grpc", "ServerStream", "RecvMsg")
	consumer("google.golang.org/api/iterator", "Pager", "NextPage")
}

// writers are the methods that write to a stream: a method that calls one through what it
// holds sends, so its reads are a round trip's answer, not a source's next item.
var writers = map[flow.FuncID]bool{}

func writer(pkg, recv string, names ...string) {
	for _, n := range names {
		writers[flow.FuncID{Pkg: pkg, Recv: recv, Name: n}] = true
	}
}

func init() {
	writer("io", "Writer", "Write")
	writer("io", "StringWriter", "WriteString")
	writer("io", "ByteWriter", "WriteByte")
	writer("bufio", "Writer", "Write", "WriteString", "WriteByte", "WriteRune", "Flush", "ReadFrom")
	writer("bufio", "ReadWriter", "Write", "WriteString", "WriteByte", "WriteRune", "Flush")
	writer("net", "Conn", "Write")
	writer("net", "TCPConn", "Write")
	writer("net", "UDPConn", "Write", "WriteTo", "WriteToUDP")
	writer("crypto/tls", "Conn", "Write")
	writer("os", "File", "Write", "WriteString")
}

// Writes reports whether fn writes to a stream (the table above).
func Writes(fn *types.Func) bool { return fn != nil && fn.Pkg() != nil && writers[flow.ID(fn)] }

// sourceArgs are the functions that take the next bytes of the reader they are handed, by the
// index of that argument.
var sourceArgs = map[flow.FuncID]int{
	{Pkg: "io", Name: "ReadFull"}:          0,
	{Pkg: "io", Name: "ReadAtLeast"}:       0,
	{Pkg: "io", Name: "CopyN"}:             1,
	{Pkg: "encoding/binary", Name: "Read"}: 0,
}

// SourceArg returns the index of the argument of fn from which it takes the next bytes
// (io.ReadFull's reader, io.CopyN's source), or -1.
func SourceArg(fn *types.Func) int {
	if fn == nil || fn.Pkg() == nil {
		return -1
	}
	if i, ok := sourceArgs[flow.ID(fn)]; ok {
		return i
	}
	return -1
}

// Consumes reports whether fn takes the next item of a source: a function or method the table
// lists, a Next method of the iterators of Google's Cloud client libraries, or the Recv method
// of a gRPC stream (a type that is also a grpc.ClientStream or grpc.ServerStream).
func Consumes(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	id := flow.ID(fn)
	if consumers[id] {
		return true
	}
	if id.Name == "Next" && strings.HasPrefix(id.Pkg, "cloud.google.com/go/") && strings.HasSuffix(id.Recv, "Iterator") {
		return true // cloud.google.com/go's generated iterators: it.Next() until iterator.Done
	}
	if id.Name == "Recv" || id.Name == "RecvMsg" {
		return grpcStream(fn)
	}
	return implementsConsumer(fn, id)
}

// implementsConsumer reports whether fn is the method of a type of the API's own package that
// implements one of the package's consumer interfaces (jetstream's pullSubscription.Next, for
// its MessagesContext): the library's implementation consumes as its interface does.
func implementsConsumer(fn *types.Func, id flow.FuncID) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	for c := range consumers {
		if c.Pkg != id.Pkg || c.Name != id.Name || c.Recv == id.Recv {
			continue
		}
		obj, ok := fn.Pkg().Scope().Lookup(c.Recv).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := obj.Type().Underlying().(*types.Interface)
		if ok && types.Implements(sig.Recv().Type(), iface) {
			return true
		}
	}
	return false
}

// grpcStream reports whether fn is a method of a gRPC stream: its receiver has RecvMsg and
// Context methods of grpc.ClientStream's or ServerStream's shape, and is declared in a package
// that imports google.golang.org/grpc.
func grpcStream(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	imports := false
	for _, imp := range fn.Pkg().Imports() {
		imports = imports || imp.Path() == "google.golang.org/grpc"
	}
	if !imports {
		return false
	}
	return lookup(sig.Recv().Type(), "RecvMsg") && lookup(sig.Recv().Type(), "Context")
}

func lookup(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	return obj != nil
}

// decoders fill the value they are handed from encoded bytes or a stream: what a loop decodes
// from an answer is that answer's content.
var decoders = map[flow.FuncID]bool{
	{Pkg: "encoding/json", Name: "Unmarshal"}:                    true,
	{Pkg: "encoding/json", Recv: "Decoder", Name: "Decode"}:      true,
	{Pkg: "encoding/xml", Name: "Unmarshal"}:                     true,
	{Pkg: "encoding/xml", Recv: "Decoder", Name: "Decode"}:       true,
	{Pkg: "google.golang.org/protobuf/proto", Name: "Unmarshal"}: true,
	{Pkg: "gopkg.in/yaml.v3", Name: "Unmarshal"}:                 true,
	{Pkg: "sigs.k8s.io/yaml", Name: "Unmarshal"}:                 true,
}

// Decodes reports whether fn fills a value it is handed from encoded data (the table above).
func Decodes(fn *types.Func) bool { return fn != nil && fn.Pkg() != nil && decoders[flow.ID(fn)] }

package knowledge

// The packages of the standard library and the well-known modules whose APIs the tables
// describe, by import path.
const (
	HTTPPath      = "net/http"
	NetPath       = "net"
	TLSPath       = "crypto/tls"
	SMTPPath      = "net/smtp"
	WebSocketPath = "golang.org/x/net/websocket"
	MailPath      = "gopkg.in/mail.v2"
	SSHPath       = "golang.org/x/crypto/ssh"
	GRPCPath      = "google.golang.org/grpc"
	ContextPath   = "context"
)

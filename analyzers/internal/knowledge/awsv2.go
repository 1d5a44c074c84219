package knowledge

// AWS SDK for Go v2 service clients: the standard retryer, 3 attempts, jittered, bounded by
// the context. RetryMaxAttempts (the client's Options, the Config, config.WithRetryMaxAttempts)
// counts attempts, 0 keeping the default and a negative value none; aws.NopRetryer never
// retries; retry.AddWithMaxAttempts(r, 0) removes the cap.
var AWSv2 = &Library{
	Name:     "aws-sdk-go-v2 service clients",
	Paths:    []string{"github.com/aws/aws-sdk-go-v2/service/", "github.com/aws/aws-sdk-go-v2/config", "github.com/aws/aws-sdk-go-v2/aws"},
	Prefix:   true,
	Clients:  []Entry{{Recv: "Client", Config: []int{-1}, Ctx: 0}},
	Defaults: Summary{*AtMost(3), WaitJittered, DeadlineNone},
	Settings: map[string]Option{
		"Options.RetryMaxAttempts":     {Layer: 1, Attempts: awsAttempts},
		"Config.RetryMaxAttempts":      {Layer: 1, Attempts: awsAttempts},
		"LoadOptions.RetryMaxAttempts": {Layer: 1, Attempts: awsAttempts},
		"WithRetryMaxAttempts":         {Layer: 1, Arg: 0, Attempts: awsAttempts},
		"NopRetryer{}":                 {Layer: 1, Bound: Once},
		"AddWithMaxAttempts":           {Layer: 1, Arg: 1, Attempts: AttemptsOf(0).ZeroMeans(Unbounded)},
	},
}

var awsAttempts = AttemptsOf(0).ZeroMeans(AtMost(3)).NegativeMeans(Unbounded)

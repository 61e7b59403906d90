package server

// The envelopes every resource answers in.

// dataBody wraps a resource, or a list of them, as {"data": ...}.
type dataBody[T any] struct {
	Data T `json:"data"`
}

// links is a resource's own address, as {"self": url}.
type links struct {
	Self string `json:"self"`
}

// messageBody is an answer that is only a message, as {"message", "status"}.
type messageBody struct {
	Message string `json:"message"`
	Status  int    `json:"status"`
}

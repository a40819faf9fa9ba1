package dap

import (
	godap "github.com/google/go-dap"
)

// Messages the proxy originates. Their seqs come from the proxy's own
// range, so they never collide with the adapter's; clients match responses
// by request_seq and do not check event seqs.

// Error ids of the proxy's own error responses.
const (
	errIDProxy = 7001
)

func (p *proxy) replyError(req envelope, text string) {
	text = p.secrets.redact(text)
	_ = p.client.write(mustMarshal(&godap.ErrorResponse{
		Response: godap.Response{
			ProtocolMessage: godap.ProtocolMessage{Seq: p.nextSeq(), Type: "response"},
			RequestSeq:      req.Seq,
			Success:         false,
			Command:         req.Command,
			Message:         text,
		},
		Body: godap.ErrorResponseBody{Error: &godap.ErrorMessage{Id: errIDProxy, Format: text, ShowUser: true}},
	}))
}

func (p *proxy) replySuccess(req envelope) {
	_ = p.client.write(mustMarshal(&godap.Response{
		ProtocolMessage: godap.ProtocolMessage{Seq: p.nextSeq(), Type: "response"},
		RequestSeq:      req.Seq,
		Success:         true,
		Command:         req.Command,
	}))
}

func (p *proxy) sendOutput(category, text string) {
	_ = p.client.write(mustMarshal(&godap.OutputEvent{
		Event: godap.Event{ProtocolMessage: godap.ProtocolMessage{Seq: p.nextSeq(), Type: "event"}, Event: "output"},
		Body:  godap.OutputEventBody{Category: category, Output: p.secrets.redact(text)},
	}))
}

func (p *proxy) sendTerminated() {
	_ = p.client.write(mustMarshal(&godap.TerminatedEvent{
		Event: godap.Event{ProtocolMessage: godap.ProtocolMessage{Seq: p.nextSeq(), Type: "event"}, Event: "terminated"},
	}))
}

// DebuggeeURLEvent is the custom event that hands an editor the URL that
// opens the application joined to this debug session.
const DebuggeeURLEvent = "elemctl/debuggeeUrl"

// DebuggeeURLBody is the body of DebuggeeURLEvent.
type DebuggeeURLBody struct {
	URL       string `json:"url"`
	SessionID string `json:"sessionId"`
	AppID     string `json:"appId,omitempty"`
}

func (p *proxy) sendDebuggeeURL(plan attachPlan) {
	_ = p.client.write(mustMarshal(&struct {
		godap.Event
		Body DebuggeeURLBody `json:"body"`
	}{
		Event: godap.Event{ProtocolMessage: godap.ProtocolMessage{Seq: p.nextSeq(), Type: "event"}, Event: DebuggeeURLEvent},
		Body:  DebuggeeURLBody{URL: plan.url, SessionID: plan.session, AppID: plan.appID},
	}))
}

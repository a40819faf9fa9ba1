// Package deploy holds elemctl's long operations: the verified deploy
// cycle, apply with the busy wait, the verification shared by deploy,
// apps apply, verify-deploy and create/ensure, probe with its cleanup,
// and apps create/ensure with source selection and the sign-in field.
//
// Every wait takes its time from an injected Clock and its rhythm from a
// PollPolicy: fast at first, backing off to a cap, so a quick apply is
// reported within a fraction of a second and a long one costs the
// platform one request per cap. Every wait honours its context; a probe
// interrupted after its upload still removes what it made.
package deploy

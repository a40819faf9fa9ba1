package stand

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// faultFile is the file form of a FaultSet (JSON or YAML, kebab-case keys).
type faultFile struct {
	Seed   int64       `json:"seed" yaml:"seed"`
	Faults []faultLine `json:"faults" yaml:"faults"`
}

type faultLine struct {
	Name        string       `json:"name,omitempty" yaml:"name"`
	Method      string       `json:"method,omitempty" yaml:"method"`
	Path        string       `json:"path,omitempty" yaml:"path"`
	Nth         int          `json:"nth,omitempty" yaml:"nth"`
	Every       int          `json:"every,omitempty" yaml:"every"`
	Probability float64      `json:"probability,omitempty" yaml:"probability"`
	Times       int          `json:"times,omitempty" yaml:"times"`
	Effect      string       `json:"effect" yaml:"effect"`
	Status      int          `json:"status,omitempty" yaml:"status"`
	RetryAfter  fileDuration `json:"retry-after,omitempty" yaml:"retry-after"`
	Delay       fileDuration `json:"delay,omitempty" yaml:"delay"`
}

// fileDuration is a duration as the file writes it: a Go duration ("2s",
// "150ms") or a number of seconds (2, 0.5, "2").
type fileDuration time.Duration

// ParseDuration reads a duration as the stand's files and options take it:
// a Go duration ("2s", "150ms") or a number of seconds ("2", "0.5").
func ParseDuration(text string) (time.Duration, error) {
	text = strings.TrimSpace(text)
	if secs, err := strconv.ParseFloat(text, 64); err == nil {
		return secondsDuration(secs)
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return 0, fmt.Errorf("%q is no duration (write 2s, 150ms, 1m30s or a number of seconds)", text)
	}
	return d, nil
}

func secondsDuration(secs float64) (time.Duration, error) {
	if math.IsNaN(secs) || math.IsInf(secs, 0) || math.Abs(secs) > float64(math.MaxInt64/int64(time.Second)) {
		return 0, fmt.Errorf("%v seconds is no duration", secs)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

func (d *fileDuration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a duration is a value such as 2s or 0.5", n.Line)
	}
	v, err := ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %v", n.Line, err)
	}
	*d = fileDuration(v)
	return nil
}

func (d fileDuration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// ParseFaults reads a fault set from its file form, JSON or YAML, and
// checks every rule.
func ParseFaults(data []byte) (FaultSet, error) {
	var f faultFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return FaultSet{}, errors.New("stand: the faults are empty: write {\"faults\": [...]}")
		}
		return FaultSet{}, fmt.Errorf("stand: faults: %v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	set := FaultSet{Seed: f.Seed}
	for _, l := range f.Faults {
		set.Faults = append(set.Faults, Fault{Name: l.Name, Method: l.Method, Path: l.Path, Nth: l.Nth, Every: l.Every,
			Probability: l.Probability, Times: l.Times, Effect: Effect(l.Effect), Status: l.Status,
			RetryAfter: time.Duration(l.RetryAfter), Delay: time.Duration(l.Delay)})
	}
	if _, err := compileFaults(set); err != nil {
		return FaultSet{}, err
	}
	return set, nil
}

// LoadFaults reads a faults file (JSON or YAML; docs/stand.md).
func LoadFaults(path string) (FaultSet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return FaultSet{}, fmt.Errorf("stand: reading the faults: %w", err)
	}
	set, err := ParseFaults(data)
	if err != nil {
		return FaultSet{}, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}

// MarshalFaults writes a fault set in its file form (JSON).
func MarshalFaults(set FaultSet) []byte {
	f := faultFile{Seed: set.Seed, Faults: []faultLine{}}
	for _, r := range set.Faults {
		f.Faults = append(f.Faults, faultLine{Name: r.Name, Method: r.Method, Path: r.Path, Nth: r.Nth, Every: r.Every,
			Probability: r.Probability, Times: r.Times, Effect: string(r.Effect), Status: r.Status,
			RetryAfter: fileDuration(r.RetryAfter), Delay: fileDuration(r.Delay)})
	}
	data, _ := json.MarshalIndent(f, "", "  ")
	return data
}

package com.e1c.g5rt.debugger.adapter;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.AccessibleObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for the platform's debug adapter, used by the elemctl dap
 * tests. It is started the way elemctl starts the real one, writes what it
 * was started with to record.txt next to its repo/ directory, and answers
 * the requests of a plain attach session.
 */
public final class App {
    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);
    private static Path record;
    private static int seq = 0;

    public static void main(String[] args) throws Exception {
        Path jar = Paths.get(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        record = jar.getParent().getParent().resolve("record.txt");
        Files.deleteIfExists(record);
        for (String a : args) {
            note("arg", a);
        }
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            note("jvm", a);
        }
        // The exact argument vector the java launcher got, where the
        // platform tells it (Linux, macOS; not Windows).
        String[] argv = ProcessHandle.current().info().arguments().orElse(new String[0]);
        for (String a : argv) {
            note("argv", a);
        }
        note("env", "ELEMCTL_JAVA_STAND_IN=" + System.getenv("ELEMCTL_JAVA_STAND_IN"));
        for (String p : new String[] {"file.encoding", "sun.java.command", "java.class.path"}) {
            note("prop", p + "=" + System.getProperty(p));
        }
        note("opens", "java.lang=" + canOpen("java.lang.String", "value", false));
        note("opens", "jdk.internal.misc=" + canOpen("jdk.internal.misc.Unsafe", "getUnsafe", true));

        InputStream in = new BufferedInputStream(System.in);
        while (true) {
            byte[] body = readFrame(in);
            if (body == null) {
                note("eof", "");
                System.exit(0);
            }
            Object parsed = new Json(new String(body, StandardCharsets.UTF_8)).value();
            if (!(parsed instanceof Map)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> msg = (Map<String, Object>) parsed;
            if ("request".equals(msg.get("type"))) {
                handle(msg);
            }
        }
    }

    private static boolean canOpen(String className, String member, boolean method) {
        try {
            Class<?> c = Class.forName(className);
            AccessibleObject m = method ? c.getDeclaredMethod(member) : c.getDeclaredField(member);
            m.setAccessible(true);
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    @SuppressWarnings("unchecked")
    private static void handle(Map<String, Object> req) throws IOException {
        String command = (String) req.get("command");
        Map<String, Object> args = req.get("arguments") instanceof Map
                ? (Map<String, Object>) req.get("arguments") : new LinkedHashMap<>();
        note("request", command + " " + Json.write(args));
        Map<String, Object> body = new LinkedHashMap<>();
        switch (command) {
            case "initialize":
                body.put("supportsConfigurationDoneRequest", true);
                body.put("supportsFakeJavaAdapter", true);
                respond(req, true, body, null);
                event("initialized", new LinkedHashMap<>());
                return;
            case "attach":
                note("attach", Json.write(args));
                // Real adapters log their launch arguments; the proxy must
                // mask the token in what it relays.
                System.err.println("fake adapter: attach arguments " + Json.write(args));
                System.err.flush();
                respond(req, true, null, null);
                return;
            case "setBreakpoints": {
                List<Object> out = new ArrayList<>();
                Object bps = args.get("breakpoints");
                if (bps instanceof List) {
                    int id = 1;
                    for (Object bp : (List<Object>) bps) {
                        Map<String, Object> b = new LinkedHashMap<>();
                        b.put("id", id++);
                        b.put("verified", true);
                        b.put("line", ((Map<String, Object>) bp).get("line"));
                        out.add(b);
                    }
                }
                body.put("breakpoints", out);
                respond(req, true, body, null);
                return;
            }
            case "configurationDone": {
                respond(req, true, null, null);
                Map<String, Object> stopped = new LinkedHashMap<>();
                stopped.put("reason", "breakpoint");
                stopped.put("threadId", 1);
                stopped.put("allThreadsStopped", true);
                event("stopped", stopped);
                return;
            }
            case "threads": {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("id", 1);
                t.put("name", "main");
                body.put("threads", List.of(t));
                respond(req, true, body, null);
                return;
            }
            case "variables": {
                double ref = ((Number) args.getOrDefault("variablesReference", 0)).doubleValue();
                Object filter = args.get("filter");
                List<Object> vars = new ArrayList<>();
                if (ref == 1) {
                    vars.add(variable("obj", "{...}", 10, 2, 3));
                } else if (ref == 10 && "indexed".equals(filter)) {
                    for (int i = 0; i < 3; i++) {
                        vars.add(variable("[" + i + "]", "i" + i, 0, 0, 0));
                    }
                } else if (ref == 10 && "named".equals(filter)) {
                    vars.add(variable("a", "1", 0, 0, 0));
                    vars.add(variable("b", "2", 0, 0, 0));
                } else if (ref == 10) {
                    respond(req, false, null, "filterless request would hang the debuggee");
                    return;
                }
                body.put("variables", vars);
                respond(req, true, body, null);
                return;
            }
            case "disconnect":
                respond(req, true, null, null);
                event("terminated", new LinkedHashMap<>());
                OUT.flush();
                note("exit", "disconnect");
                System.exit(0);
                return;
            default:
                respond(req, false, null, "unsupported request " + command);
        }
    }

    private static Map<String, Object> variable(String name, String value, int ref, int named, int indexed) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", name);
        v.put("value", value);
        v.put("variablesReference", ref);
        if (named > 0) {
            v.put("namedVariables", named);
        }
        if (indexed > 0) {
            v.put("indexedVariables", indexed);
        }
        return v;
    }

    private static void respond(Map<String, Object> req, boolean ok, Map<String, Object> body, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seq", ++seq);
        m.put("type", "response");
        m.put("request_seq", req.get("seq"));
        m.put("success", ok);
        m.put("command", req.get("command"));
        if (message != null) {
            m.put("message", message);
        }
        if (body != null) {
            m.put("body", body);
        }
        send(m);
    }

    private static void event(String name, Map<String, Object> body) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seq", ++seq);
        m.put("type", "event");
        m.put("event", name);
        m.put("body", body);
        send(m);
    }

    private static synchronized void send(Map<String, Object> m) {
        byte[] body = Json.write(m).getBytes(StandardCharsets.UTF_8);
        OUT.print("Content-Length: " + body.length + "\r\n\r\n");
        OUT.write(body, 0, body.length);
        OUT.flush();
    }

    private static byte[] readFrame(InputStream in) throws IOException {
        int length = -1;
        while (true) {
            String line = readLine(in);
            if (line == null) {
                return null;
            }
            if (line.isEmpty()) {
                if (length >= 0) {
                    break;
                }
                continue;
            }
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(line.substring(colon + 1).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return body.length == length ? body : null;
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = buf.toString(StandardCharsets.UTF_8);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            buf.write(c);
        }
        return null;
    }

    private static synchronized void note(String kind, String value) {
        try {
            Files.writeString(record, kind + "\t" + value + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** Just enough JSON for DAP messages. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String k = string();
                        skip();
                        i++; // ':'
                        m.put(k, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    i += 4;
                    return Boolean.TRUE;
                case 'f':
                    i += 5;
                    return Boolean.FALSE;
                case 'n':
                    i += 4;
                    return null;
                default: {
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    String num = s.substring(start, i);
                    if (num.matches("-?\\d+")) {
                        return Long.parseLong(num);
                    }
                    return Double.parseDouble(num);
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            i++; // opening quote
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u':
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: b.append(e);
                }
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        @SuppressWarnings("unchecked")
        static String write(Object v) {
            if (v == null) {
                return "null";
            }
            if (v instanceof String) {
                StringBuilder b = new StringBuilder("\"");
                for (char c : ((String) v).toCharArray()) {
                    switch (c) {
                        case '"': b.append("\\\""); break;
                        case '\\': b.append("\\\\"); break;
                        case '\n': b.append("\\n"); break;
                        case '\r': b.append("\\r"); break;
                        case '\t': b.append("\\t"); break;
                        default:
                            if (c < 0x20) {
                                b.append(String.format("\\u%04x", (int) c));
                            } else {
                                b.append(c);
                            }
                    }
                }
                return b.append('"').toString();
            }
            if (v instanceof Map) {
                StringBuilder b = new StringBuilder("{");
                boolean first = true;
                for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    b.append(write(e.getKey())).append(':').append(write(e.getValue()));
                }
                return b.append('}').toString();
            }
            if (v instanceof List) {
                StringBuilder b = new StringBuilder("[");
                boolean first = true;
                for (Object e : (List<Object>) v) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    b.append(write(e));
                }
                return b.append(']').toString();
            }
            return String.valueOf(v);
        }
    }

    static {
        // OUT is the process's stdout; keep System.out away from it so a
        // stray println cannot corrupt the protocol.
        System.setOut(System.err);
    }
}

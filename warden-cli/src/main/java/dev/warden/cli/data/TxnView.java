package dev.warden.cli.data;

import dev.warden.cli.shell.AclText;
import dev.warden.protocol.Acl;
import dev.warden.state.tree.NodeOwner;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A logged transaction as the dump tools show it: a type name and its fields in order, written
 * as one text line or one JSON object. Zxids and session ids are hexadecimal, as ZooKeeper's
 * tools and Warden's logs write them.
 */
final class TxnView {
    /** One field; the value is a String, Long, Integer, DataFormat.Rendered, a list of ACL strings or nested views. */
    record Field(String name, Object value) {
    }

    /** A value printed as it is in text (not quoted as a string is). */
    record Word(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A transaction or one op of a multi. */
    record Op(String type, List<Field> fields) {
    }

    private TxnView() {
    }

    static String hex(long value) {
        return "0x" + Long.toHexString(value);
    }

    static List<String> aclStrings(List<Acl> acl) {
        List<String> entries = new ArrayList<>(acl.size());
        for (Acl entry : acl) {
            entries.add(entry.id().scheme() + ":" + entry.id().id() + ":" + AclText.formatPerms(entry.perms()));
        }
        return entries;
    }

    static Op describe(TxnBody body, DataFormat dataFormat) {
        List<Field> fields = new ArrayList<>();
        String type;
        if (body instanceof TxnBody.Create c) {
            type = "create";
            fields.add(new Field("path", c.path()));
            fields.add(new Field("data", dataFormat.render(c.data())));
            fields.add(new Field("acl", aclStrings(c.acl())));
            fields.add(new Field("mode", new Word(mode(c.owner()))));
            fields.add(new Field("parentCversion", c.parentCversion()));
        } else if (body instanceof TxnBody.Delete d) {
            type = "delete";
            fields.add(new Field("path", d.path()));
        } else if (body instanceof TxnBody.SetData s) {
            type = "setData";
            fields.add(new Field("path", s.path()));
            fields.add(new Field("data", dataFormat.render(s.data())));
            fields.add(new Field("version", s.version()));
        } else if (body instanceof TxnBody.SetAcl s) {
            type = "setACL";
            fields.add(new Field("path", s.path()));
            fields.add(new Field("acl", aclStrings(s.acl())));
            fields.add(new Field("aclVersion", s.aversion()));
        } else if (body instanceof TxnBody.CreateSession s) {
            type = "createSession";
            fields.add(new Field("timeoutMs", s.timeoutMs()));
        } else if (body instanceof TxnBody.CloseSession c) {
            type = "closeSession";
            fields.add(new Field("ephemerals", c.ephemeralPaths()));
        } else if (body instanceof TxnBody.Multi m) {
            type = "multi";
            List<Op> ops = new ArrayList<>();
            for (TxnBody op : m.ops()) {
                ops.add(describe(op, dataFormat));
            }
            fields.add(new Field("ops", ops));
        } else if (body instanceof TxnBody.Check c) {
            type = "check";
            fields.add(new Field("path", c.path()));
        } else if (body instanceof TxnBody.Reconfig r) {
            type = "reconfig";
            fields.add(new Field("members", new String(r.memberText(), java.nio.charset.StandardCharsets.UTF_8)));
        } else if (body instanceof TxnBody.Restore r) {
            type = "restore";
            fields.add(new Field("snapshotZxid", new Word(hex(dev.warden.storage.SnapshotBytes.zxid(r.snapshotFile())))));
            fields.add(new Field("bytes", r.snapshotFile().length));
        } else {
            throw new IllegalArgumentException("unknown txn body " + body);
        }
        return new Op(type, fields);
    }

    /** The create mode a tree owner encodes. */
    static String mode(long owner) {
        if (owner == NodeOwner.PERSISTENT) {
            return "persistent";
        }
        if (NodeOwner.isContainer(owner)) {
            return "container";
        }
        if (NodeOwner.isTtl(owner)) {
            return "ttl:" + NodeOwner.ttlMs(owner) + "ms";
        }
        return "ephemeral:" + hex(owner);
    }

    /** Every path the transaction names (for --path filters). */
    static List<String> paths(TxnBody body) {
        List<String> paths = new ArrayList<>();
        if (body instanceof TxnBody.Create c) {
            paths.add(c.path());
        } else if (body instanceof TxnBody.Delete d) {
            paths.add(d.path());
        } else if (body instanceof TxnBody.SetData s) {
            paths.add(s.path());
        } else if (body instanceof TxnBody.SetAcl s) {
            paths.add(s.path());
        } else if (body instanceof TxnBody.CloseSession c) {
            paths.addAll(c.ephemeralPaths());
        } else if (body instanceof TxnBody.Multi m) {
            for (TxnBody op : m.ops()) {
                paths.addAll(paths(op));
            }
        } else if (body instanceof TxnBody.Check c) {
            paths.add(c.path());
        } else if (body instanceof TxnBody.Reconfig) {
            paths.add("/zookeeper/config"); // what it sets, as ZooKeeper's reconfig transaction does
        }
        return paths;
    }

    /** The type names a multi's ops or the transaction itself carry (for --type filters). */
    static List<String> types(TxnBody body) {
        List<String> types = new ArrayList<>();
        types.add(describe(body, DataFormat.NONE).type());
        if (body instanceof TxnBody.Multi m) {
            for (TxnBody op : m.ops()) {
                types.addAll(types(op));
            }
        }
        return types;
    }

    /** {@code <time> session:0x.. cxid:0x.. zxid:0x.. <type> field=value ...} on one line. */
    static void writeText(Txn txn, DataFormat dataFormat, PrintWriter out) {
        out.print(Instant.ofEpochMilli(txn.timeMs()));
        out.print(" session:" + hex(txn.sessionId()) + " cxid:" + hex(txn.cxid() & 0xffffffffL) + " zxid:"
                + hex(txn.zxid()) + " ");
        writeText(describe(txn.body(), dataFormat), out);
        out.println();
    }

    private static void writeText(Op op, PrintWriter out) {
        out.print(op.type());
        for (Field field : op.fields()) {
            out.print(' ');
            out.print(field.name());
            out.print('=');
            writeTextValue(field.value(), out);
        }
    }

    @SuppressWarnings("unchecked")
    private static void writeTextValue(Object value, PrintWriter out) {
        if (value instanceof DataFormat.Rendered rendered) {
            out.print(rendered.value() == null ? "null" : "base64".equals(rendered.encoding())
                    || "hex".equals(rendered.encoding()) ? rendered.encoding() + ":" + rendered.value()
                    : quote(rendered.value()));
        } else if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Op) {
            out.print('[');
            boolean first = true;
            for (Op op : (List<Op>) list) {
                out.print(first ? "" : "; ");
                first = false;
                writeText(op, out);
            }
            out.print(']');
        } else if (value instanceof List<?> list) {
            out.print(list);
        } else if (value instanceof String text) {
            out.print(quote(text));
        } else {
            out.print(value);
        }
    }

    private static String quote(String text) {
        return '\'' + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + '\'';
    }

    /** One JSON object: zxid, time, session, cxid, type and the type's fields. */
    static void writeJson(Txn txn, DataFormat dataFormat, JsonWriter json) {
        json.beginObject();
        json.field("zxid", hex(txn.zxid()));
        json.field("timeMs", txn.timeMs());
        json.field("time", Instant.ofEpochMilli(txn.timeMs()).toString());
        json.field("session", hex(txn.sessionId()));
        json.field("cxid", txn.cxid());
        writeJsonFields(describe(txn.body(), dataFormat), json);
        json.endObject();
    }

    private static void writeJsonFields(Op op, JsonWriter json) {
        json.field("type", op.type());
        for (Field field : op.fields()) {
            json.name(field.name());
            writeJsonValue(field.value(), json);
            if (field.value() instanceof DataFormat.Rendered rendered) {
                json.field(field.name() + "Encoding", rendered.encoding());
            }
        }
    }

    private static void writeJsonValue(Object value, JsonWriter json) {
        if (value instanceof DataFormat.Rendered rendered) {
            json.value(rendered.value());
        } else if (value instanceof List<?> list) {
            json.beginArray();
            for (Object item : list) {
                if (item instanceof Op op) {
                    json.beginObject();
                    writeJsonFields(op, json);
                    json.endObject();
                } else {
                    json.value(String.valueOf(item));
                }
            }
            json.endArray();
        } else if (value instanceof Integer number) {
            json.value(number.longValue());
        } else if (value instanceof Long number) {
            json.value(number);
        } else {
            json.value(String.valueOf(value));
        }
    }
}

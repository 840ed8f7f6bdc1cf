package dev.warden.server.it;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One step of the differential workload, executed identically against each target. Fields not
 * used by a kind are left at neutral values.
 */
record DiffOp(int index, Kind kind, int session, String path, byte[] data, int version, int aclChoice,
              int modeChoice, boolean watch, String auth, List<DiffOp> subOps) {

    enum Kind {
        CREATE, CREATE2, DELETE, SET_DATA, EXISTS, GET_DATA, GET_CHILDREN, GET_CHILDREN2, GET_ACL, SET_ACL,
        ADD_AUTH, MULTI, MULTI_READ, CHECK, GET_EPHEMERALS, GET_ALL_CHILDREN_NUMBER, SYNC, REMOVE_WATCHES,
        CLOSE_SESSION
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("#").append(index).append(" s").append(session).append(' ')
            .append(kind).append(' ').append(path);
        switch (kind) {
            case CREATE, CREATE2 -> text.append(" mode=").append(modeChoice).append(" acl=").append(aclChoice)
                .append(" data=").append(data == null ? "null" : new String(data, StandardCharsets.UTF_8));
            case DELETE, CHECK -> text.append(" v=").append(version);
            case SET_DATA -> text.append(" v=").append(version).append(" len=").append(data == null ? -1 : data.length);
            case SET_ACL -> text.append(" acl=").append(aclChoice).append(" v=").append(version);
            case EXISTS, GET_DATA, GET_CHILDREN, GET_CHILDREN2 -> text.append(" watch=").append(watch);
            case ADD_AUTH -> text.append(' ').append(auth);
            case REMOVE_WATCHES -> text.append(" type=").append(modeChoice);
            case MULTI, MULTI_READ -> text.append(subOps.stream().map(DiffOp::toString)
                .collect(Collectors.joining("; ", " [", "]")));
            default -> { }
        }
        return text.toString();
    }
}

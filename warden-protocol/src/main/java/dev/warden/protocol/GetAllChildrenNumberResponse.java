package dev.warden.protocol;

/** Wire record GetAllChildrenNumberResponse (jute). */
public record GetAllChildrenNumberResponse(int totalNumber) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(totalNumber);
    }

    public static GetAllChildrenNumberResponse read(JuteReader in) {
        return new GetAllChildrenNumberResponse(in.readInt());
    }
}

package dev.warden.protocol;

/** Wire record CreateResponse (jute). */
public record CreateResponse(String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringSizeHint(path);
    }

    public static CreateResponse read(JuteReader in) {
        return new CreateResponse(in.readString());
    }
}

package dev.warden.cli.data;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/** How the dump tools show a znode's data. */
enum DataFormat {
    /** Text when the bytes are printable UTF-8, base64 otherwise; the output says which. */
    AUTO,
    TEXT,
    BASE64,
    HEX,
    /** Only the length. */
    NONE;

    /** The bytes as shown, and in which encoding ("text", "base64", "hex"); null data stays null. */
    record Rendered(String encoding, String value) {
    }

    Rendered render(byte[] data) {
        if (data == null) {
            return new Rendered("none", null);
        }
        return switch (this) {
            case AUTO -> {
                String text = printableUtf8(data);
                yield text != null ? new Rendered("text", text)
                        : new Rendered("base64", Base64.getEncoder().encodeToString(data));
            }
            case TEXT -> new Rendered("text", new String(data, StandardCharsets.UTF_8));
            case BASE64 -> new Rendered("base64", Base64.getEncoder().encodeToString(data));
            case HEX -> new Rendered("hex", HexFormat.of().formatHex(data));
            case NONE -> new Rendered("none", null);
        };
    }

    /** The text if the bytes are valid UTF-8 without control characters other than tab and newlines. */
    private static String printableUtf8(byte[] data) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException notText) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f) {
                return null;
            }
        }
        return text;
    }
}

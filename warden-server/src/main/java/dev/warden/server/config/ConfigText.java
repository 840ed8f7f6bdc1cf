package dev.warden.server.config;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A configuration file's text, read as UTF-8. A byte that is not UTF-8 (a Latin-1 "é" from an
 * old editor, say) is refused naming the file, the line, the column and the byte, instead of a
 * bare MalformedInputException.
 */
final class ConfigText {
    private ConfigText() {
    }

    static String decodeUtf8(Path file, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw notUtf8(file, bytes, in.position());
        }
        return out.flip().toString();
    }

    private static ConfigException notUtf8(Path file, byte[] bytes, int badAt) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < badAt; i++) {
            if (bytes[i] == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new ConfigException(null, file + " line " + line + ", byte " + (badAt - lineStart + 1) + " of the line: 0x"
                + String.format("%02X", bytes[badAt] & 0xff) + " is not UTF-8 (was the file saved as Latin-1?). Save it"
                + " as UTF-8, or write the character as a \\uXXXX escape.");
    }
}

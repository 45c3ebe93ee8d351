"""A small CD+G writer for tests: packets the decoder in public/js/cdg.js must draw, and the
pixels a correct decoder draws from them (a reference model kept separate from the JS)."""
PACKET = 24
WIDTH, HEIGHT = 300, 216


def packet(instruction, data):
    data = list(data) + [0] * (16 - len(data))
    return bytes([0x09, instruction & 0x3F, 0, 0] + [d & 0x3F for d in data] + [0, 0, 0, 0])


def empty():
    return bytes(PACKET)


def memory_preset(colour):
    return packet(1, [colour, 0])


def border_preset(colour):
    return packet(2, [colour])


def tile(colour0, colour1, row, column, rows, xor=False):
    """rows: 12 ints of 6 bits, bit 5 the leftmost pixel."""
    return packet(38 if xor else 6, [colour0, colour1, row, column] + list(rows))


def colours(first, rgb12):
    """Eight (r, g, b) 4-bit colours into table entries first..first+7 (first = 0 or 8)."""
    data = []
    for r, g, b in rgb12:
        data += [(r << 2) | (g >> 2), ((g & 3) << 4) | b]
    return packet(30 if first == 0 else 31, data)


def scroll(colour, h_cmd, v_cmd, copy=False):
    return packet(24 if copy else 20, [colour, h_cmd << 4, v_cmd << 4])


class Reference:
    """Palette indices of a correct decoder for the commands this writer makes."""

    def __init__(self):
        self.pixels = [[0] * WIDTH for _ in range(HEIGHT)]

    def fill(self, colour):
        self.pixels = [[colour] * WIDTH for _ in range(HEIGHT)]

    def tile(self, colour0, colour1, row, column, rows, xor=False):
        for y in range(12):
            for x in range(6):
                c = colour1 if (rows[y] >> (5 - x)) & 1 else colour0
                py, px = row * 12 + y, column * 6 + x
                self.pixels[py][px] = self.pixels[py][px] ^ c if xor else c

    def scroll_left_copy(self):
        self.pixels = [row[6:] + row[:6] for row in self.pixels]

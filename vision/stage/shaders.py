"""The GLSL programs: the scene in linear light (cloth, wood, cards, arms), the lamps'
shadow maps, and the camera's passes (depth of field, lens, then exposure and sensor).

One lighting model for every surface — Lambert plus Blinn-Phong with its normalisation, so
a glossy card under a lamp flares as printed card stock does — and each lamp's shadow
softened by its size (a blocker search, then filtering as wide as the penumbra). The scene
pass writes the view depth beside the colour (alpha) for the camera pass's depth of field.
"""

from __future__ import annotations

from vision.stage.lighting import SPILL

HEADER = "#version 330\n"

#: a card's grid bent in the vertex shader (half width and height in cm are filled in)
CARD_VERTEX = """
uniform mat4 view_proj;
in vec3 in_pos;
in vec4 in_m0; in vec4 in_m1; in vec4 in_m2; in vec4 in_m3;
in vec4 in_bend;
in vec4 in_card;
out vec3 v_world;
out vec3 v_normal;
out vec2 v_local;
flat out vec4 v_card;
void main() {
    mat4 model = mat4(in_m0, in_m1, in_m2, in_m3);
    float ux = in_pos.x / HALF_W, uy = in_pos.y / HALF_H;
    float z = in_bend.x * ux * ux + in_bend.y * uy * uy + in_bend.z;
    vec3 n = normalize(vec3(-2.0 * in_bend.x * ux / HALF_W, -2.0 * in_bend.y * uy / HALF_H, 1.0));
    vec4 world = model * vec4(in_pos.xy, z, 1.0);
    v_world = world.xyz;
    v_normal = mat3(model) * n;
    v_local = in_pos.xy;
    v_card = in_card;
    gl_Position = view_proj * world;
}
"""

#: arms, hands and sleeves: unit spheres, cylinders and boxes placed by a matrix each
SOLID_VERTEX = """
uniform mat4 view_proj;
in vec3 in_pos;
in vec3 in_normal;
in vec4 in_m0; in vec4 in_m1; in vec4 in_m2; in vec4 in_m3;
in vec4 in_colour;
out vec3 v_world;
out vec3 v_normal;
flat out vec4 v_colour;
void main() {
    mat4 model = mat4(in_m0, in_m1, in_m2, in_m3);
    vec4 world = model * vec4(in_pos, 1.0);
    v_world = world.xyz;
    v_normal = transpose(inverse(mat3(model))) * in_normal;
    v_colour = in_colour;
    gl_Position = view_proj * world;
}
"""

#: the cloth and the wood under it: flat quads in table coordinates
TABLE_VERTEX = """
uniform mat4 view_proj;
in vec3 in_pos;
out vec3 v_world;
void main() {
    v_world = in_pos;
    gl_Position = view_proj * vec4(in_pos, 1.0);
}
"""

#: a shadow caster's fragment: its distance from the lamp
DISTANCE_FRAGMENT = """
uniform vec3 lamp;
in vec3 v_world;
out vec4 f_distance;
void main() { f_distance = vec4(length(v_world - lamp), 0.0, 0.0, 1.0); }
"""

#: a card's corners are round: the shadow pass cuts them too
CARD_DISTANCE_FRAGMENT = """
uniform vec3 lamp;
in vec3 v_world;
in vec2 v_local;
out vec4 f_distance;
float corner_out(vec2 p) {
    vec2 q = abs(p) - vec2(HALF_W - CORNER, HALF_H - CORNER);
    return length(max(q, 0.0)) - CORNER;
}
void main() {
    if (corner_out(v_local) > 0.0) discard;
    f_distance = vec4(length(v_world - lamp), 0.0, 0.0, 1.0);
}
"""

LIGHTING = f"const float SPILL = {SPILL};\n" + """
uniform vec3 exposure;
uniform float focus;
uniform float blur;
uniform vec3 eye;
uniform vec3 ambient;
uniform int lamps;
uniform vec3 lamp_pos[2];
uniform vec3 lamp_axis[2];
uniform vec3 lamp_rgb[2];
uniform vec2 lamp_cone[2];
uniform mat4 lamp_vp[2];
uniform float lamp_tan[2];
uniform sampler2D shadow0;
uniform sampler2D shadow1;
uniform sampler2D table_light;
uniform float table_half;

const vec2 RING[4] = vec2[](vec2(0.7, 0.3), vec2(-0.3, 0.7), vec2(-0.7, -0.3), vec2(0.3, -0.7));

float lit_direct(sampler2D map, int i, vec3 p) {
    vec4 q = lamp_vp[i] * vec4(p, 1.0);
    vec2 uv = q.xy / q.w * 0.5 + 0.5;
    float d = length(p - lamp_pos[i]) - 0.6;
    float r = 0.4 * 0.5 / (q.w * lamp_tan[i]);
    float lit = 0.0;
    for (int k = 0; k < 4; k++) lit += texture(map, uv + RING[k] * r).r >= d ? 0.25 : 0.0;
    return lit;
}

vec3 shade(vec3 albedo, vec3 n, vec3 p, float ks, float shininess) {
    vec3 v = normalize(eye - p);
    if (dot(n, v) < 0.0) n = -n;
    vec3 colour = albedo * ambient * (0.55 + 0.45 * n.z);
    float norm = ks * (shininess + 8.0) / 25.1327;
    vec2 unshadowed = p.z < 2.5 ? texture(table_light, p.xy / (2.0 * table_half) + 0.5).rg
                                : vec2(lit_direct(shadow0, 0, p), lit_direct(shadow1, 1, p));
    for (int i = 0; i < 2; i++) {
        if (i >= lamps) break;
        vec3 l = lamp_pos[i] - p;
        float d2 = dot(l, l);
        l *= inversesqrt(d2);
        float ndl = dot(n, l);
        if (ndl <= 0.0) continue;
        float spot = mix(SPILL, 1.0, smoothstep(lamp_cone[i].y, lamp_cone[i].x, dot(-l, lamp_axis[i])));
        vec3 h = normalize(l + v);
        float x = max(dot(n, h), 0.0);
        float spec = norm * exp2(shininess * 1.442695 * (x - 1.0));  // x^n, as e^(n (x - 1)) near 1
        colour += unshadowed[i] * lamp_rgb[i] * (spot * ndl / d2) * (albedo + spec);
    }
    return colour;
}

vec3 linear(vec3 srgb) { return srgb * srgb; }

// what the sensor makes of the light at p: exposed and white-balanced as the game's camera
// is set, clipped, in the camera's gamma (2); alpha carries the circle of confusion
// (pixels / 8) for the lens pass
vec4 exposed(vec3 light, vec3 p) {
    float z = length(eye - p);
    return vec4(sqrt(clamp(light * exposure, 0.0, 1.0)), clamp(blur * abs(z - focus) / z / 8.0, 0.0, 1.0));
}
"""

#: the light reaching the cloth's plane from each lamp (1: unshadowed), softened by the
#: penumbra a lamp of its size casts: a blocker search, then filtering as wide as it
TABLE_LIGHT_FRAGMENT = """
uniform int lamps;
uniform vec3 lamp_pos[2];
uniform mat4 lamp_vp[2];
uniform float lamp_tan[2];
uniform float lamp_radius[2];
uniform sampler2D shadow0;
uniform sampler2D shadow1;
uniform float table_half;
uniform vec2 size;
out vec4 f_light;

const vec2 DISK[12] = vec2[](vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893), vec2(0.507, 0.064),
    vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

float lit_by(sampler2D map, int i, vec3 p) {
    vec4 q = lamp_vp[i] * vec4(p, 1.0);
    vec2 uv = q.xy / q.w * 0.5 + 0.5;
    if (uv.x < 0.0 || uv.y < 0.0 || uv.x > 1.0 || uv.y > 1.0) return 1.0;
    float d = length(p - lamp_pos[i]) - 1.2;
    float uv_per_cm = 0.5 / (q.w * lamp_tan[i]);
    float search = 3.0 * uv_per_cm;
    float sum = 0.0, count = 0.0;
    for (int k = 0; k < 6; k++) {
        float s = texture(map, uv + DISK[k * 2] * search).r;
        if (s < d) { sum += s; count += 1.0; }
    }
    if (count == 0.0) return 1.0;
    float blocker = sum / count;
    float r = max(lamp_radius[i] * (d - blocker) / blocker, 0.25) * uv_per_cm;  // never under a texel of the map
    float lit = 0.0;
    for (int k = 0; k < 12; k++) lit += texture(map, uv + DISK[k] * r).r >= d ? 1.0 : 0.0;
    return lit / 12.0;
}

void main() {
    vec3 p = vec3((gl_FragCoord.xy / size - 0.5) * 2.0 * table_half, 0.0);
    float a = lit_by(shadow0, 0, p);
    float b = lamps > 1 ? lit_by(shadow1, 1, p) : 1.0;
    f_light = vec4(a, b, 0.0, 1.0);
}
"""

CARD_FRAGMENT = """
uniform sampler2DArray faces;
in vec3 v_world;
in vec3 v_normal;
in vec2 v_local;
flat in vec4 v_card;
out vec4 f_colour;
float corner_out(vec2 p) {
    vec2 q = abs(p) - vec2(HALF_W - CORNER, HALF_H - CORNER);
    return length(max(q, 0.0)) - CORNER;
}
void main() {
    if (corner_out(v_local) > 0.0) discard;
    vec2 uv = vec2(v_local.x / (2.0 * HALF_W) + 0.5, 0.5 - v_local.y / (2.0 * HALF_H));
    float layer = gl_FrontFacing ? v_card.x : v_card.y;
    if (!gl_FrontFacing) uv.x = 1.0 - uv.x;
    vec4 texel = texture(faces, vec3(uv, layer));
    vec3 albedo = linear(mix(vec3(0.93, 0.93, 0.9), texel.rgb, texel.a)) * 0.88;
    vec3 n = normalize(gl_FrontFacing ? v_normal : -v_normal);
    f_colour = exposed(shade(albedo, n, v_world, v_card.z, v_card.w), v_world);
}
"""

SOLID_FRAGMENT = """
in vec3 v_world;
in vec3 v_normal;
flat in vec4 v_colour;
out vec4 f_colour;
void main() {
    vec3 n = normalize(v_normal);
    float ks = v_colour.a;
    f_colour = exposed(shade(linear(v_colour.rgb), n, v_world, ks, 12.0), v_world);
}
"""

TABLE_FRAGMENT = """
uniform sampler2D cloth;
uniform sampler2D wood;
uniform sampler2D baked;
uniform float bake_half;
uniform vec3 lamp_level[2];
uniform float cloth_half;
uniform float wood_span;
uniform vec2 wood_turn;
in vec3 v_world;
out vec4 f_colour;
void main() {
    vec2 p = v_world.xy;
    vec3 albedo;
    if (abs(p.x) <= cloth_half && abs(p.y) <= cloth_half && v_world.z > -0.05) {
        albedo = linear(texture(cloth, vec2(p.x + cloth_half, cloth_half - p.y) / (2.0 * cloth_half)).rgb);
    } else {
        vec2 q = vec2(p.x * wood_turn.x - p.y * wood_turn.y, p.x * wood_turn.y + p.y * wood_turn.x);
        albedo = linear(texture(wood, q / wood_span + 0.5).rgb);
    }
    vec4 b = texture(baked, p / (2.0 * bake_half) + 0.5);
    vec2 u = texture(table_light, p / (2.0 * table_half) + 0.5).rg;
    vec3 light = albedo * ambient + (albedo * b.x + b.z) * (u.x * lamp_level[0])
                 + (albedo * b.y + b.w) * (u.y * lamp_level[1]);
    f_colour = exposed(light, v_world);
}
"""

FULLSCREEN_VERTEX = """
in vec2 in_pos;
void main() { gl_Position = vec4(in_pos, 0.0, 1.0); }
"""

#: the lens's blur, drawn once per change of scene: each pixel spread over its circle of
#: confusion (the scene's alpha, pixels / 8), never less than ``least`` (the sensor's
#: anti-aliasing filter and the lens's own softness); in the undistorted picture
OPTICS_FRAGMENT = """
uniform sampler2D scene;
uniform vec2 size;
uniform float least;
out vec4 f_colour;

const vec2 DISK[6] = vec2[](vec2(0.0, 1.0), vec2(0.866, 0.5), vec2(0.866, -0.5), vec2(0.0, -1.0),
    vec2(-0.866, -0.5), vec2(-0.866, 0.5));

void main() {
    vec2 uv = gl_FragCoord.xy / size;
    vec4 here = texture(scene, uv);
    float coc = max(here.a * 8.0, least);
    vec2 step = coc / size;
    vec3 colour = here.rgb;
    float weight = 1.0;
    for (int i = 0; i < 6; i++) {
        vec4 s = texture(scene, uv + DISK[i] * step);
        float w = clamp(max(s.a * 8.0, least) / coc, 0.25, 1.0);
        colour += s.rgb * w;
        weight += w;
    }
    f_colour = vec4(colour / weight, 1.0);
}
"""

#: the lens, drawn where the picture changed: distortion (``lens``: the offset in pixels
#: to where each delivered pixel was drawn, and the square root of what vignetting leaves
#: of its light), into the picture the sensor sees, top row first
LENS_FRAGMENT = """
uniform sampler2D picture;
uniform sampler2D lens;
uniform vec2 size;
out vec4 f_colour;

void main() {
    vec4 where = texelFetch(lens, ivec2(gl_FragCoord.xy), 0);
    f_colour = vec4(texture(picture, (gl_FragCoord.xy + where.xy) / size).rgb * where.z, 1.0);
}
"""

#: the sensor, every frame: the exposure's drift (``gain``, per channel: white balance
#: too), shot and read noise (``grain``: Gaussian draws, shifted each frame) in linear
#: light; written BGR in the camera's gamma (2), for OpenCV
SENSOR_FRAGMENT = """
uniform sampler2D lensed;
uniform sampler2D grain;
uniform vec3 gain;
uniform vec2 noise;
uniform ivec2 shift;
out vec4 f_colour;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    vec3 colour = texelFetch(lensed, pixel, 0).rgb;
    vec3 signal = min(colour * colour * gain, 1.0);
    vec3 g = texelFetch(grain, (pixel + shift) & 1023, 0).rgb;
    signal += g * sqrt(noise.x * signal + noise.y * noise.y);
    f_colour = vec4(sqrt(clamp(signal, 0.0, 1.0)).bgr, 1.0);
}
"""


def card_source(text: str, half_w: float, half_h: float, corner: float) -> str:
    """A card program's source with the card's size written in."""
    return (HEADER + f"const float HALF_W = {half_w:.5f};\nconst float HALF_H = {half_h:.5f};\n"
            f"const float CORNER = {corner:.5f};\n" + text)

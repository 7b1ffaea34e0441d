"""The refusals of the operator's commands, in 中文 and English: the camera's (``guandan
scan``, ``run``, ``detect``, ``calibrate``, ``markers``, ``enroll``, ``eval-detector``,
``render-game``, ``render-stage``, ``train*``, ``quantize-*``, ``export``: ``vision.cli.VisionError``, a deck
folder's ``vision.enroll.deck.DeckError``; one of them without the training extra:
``vision.cli.extras``), ``guandan``'s own (``scorer.cli.UserError``,
an argparse value) and the table clock's (``scorer.clock_cli.ClockUsageError``).

An operator setting up a table, a referee starting the clock, a developer training the
camera's models read these at a terminal. Each is named by a code and the values its words
need; ``COMMAND_WORDS`` joins the refusals (``rulebook.tournament_live.REFUSALS``), so a
refusal reads in ``--lang``'s language first and the other after it, as every other
command's does. What a library says (an OS error's strerror, OpenCV's, a model file's loader)
is a value (``{why}``) kept as it was said. Options, file names and model files (--deck,
.onnx, cuda:N) are the command line's and stay as written. The camera's models: the finder
(找牌模型) finds each card's corner index (牌角), the reader (识牌模型) says which card it
is, the box refiner (框校准模型) redraws its box, the suit reader (花色识别模型) its suit.
"""

from __future__ import annotations

#: code → (中文, English); ``{name}`` fields are filled by ``rulebook.tournament_live.refusal``
COMMAND_WORDS: dict[str, tuple[str, str]] = {
    # files and folders a command reads or writes
    "file_unwritable": ("{path}：无法写入（{why}）", "{path}: cannot be written ({why})"),
    "file_failed": ("{path}：无法读取或写入（{why}）", "{path}: {why}"),
    "not_folder": ("{path}：不是文件夹", "{path}: not a folder"),
    "folder_unmakeable": ("{folder}：无法建立 {option} 要写入的文件夹（{why}）",
                          "{folder}: cannot make the folder {option} writes into ({why})"),
    "image_unreadable": ("{path}：无法读取（{why}）", "{path}: {why}"),
    "not_an_image": ("{path}：不是 OpenCV 能读取的图片", "{path}: not an image OpenCV can read"),
    "no_dataset": ("{path}：没有这个数据集 YAML（请用 'guandan dataset build' 生成）",
                   "{path}: no such dataset YAML (build one with 'guandan dataset build')"),
    # the camera's models and a deck folder (``--weights``, ``--reader``, ``--deck``)
    "model_unusable": ("模型无法载入：{why}", "the model cannot be loaded: {why}"),
    "deck_with_reader": ("--deck 自带识牌模型：--deck 和 --reader 只能给一个",
                         "--deck brings its own reader: give --deck or --reader, not both"),
    "deck_not_folder": ("{folder}：不是牌组文件夹（没有 deck.json；请用 'guandan enroll' 制作）",
                        "{folder}: not a deck folder (no deck.json; make one with 'guandan enroll')"),
    "deck_unreadable": ("{folder}/deck.json：无法读取（{why}）", "{folder}/deck.json: cannot be read ({why})"),
    "deck_format": ("{folder}：牌组格式为 {format!r}，本程序读取 {reads}",
                    "{folder}: a deck of format {format!r}, this version reads {reads}"),
    "deck_reader_missing": ("{reader}：牌组的识牌模型不见了（请重新学牌：guandan enroll）",
                            "{reader}: the deck's reader is missing (enroll the deck again)"),
    "deck_finder_missing": ("{finder}：牌组的找牌模型不见了（请重新学牌：guandan enroll）",
                            "{finder}: the deck's finder is missing (enroll the deck again)"),
    "deck_doubt": ("{folder}/deck.json：doubt 应为0到1之间的置信度，不是 {doubt!r}",
                   "{folder}/deck.json: doubt must be a confidence from 0 to 1, not {doubt!r}"),
    # guandan scan, run, detect
    "video_unreadable": ("{path}：无法打开这个录像", "{path}: cannot open this video"),
    "no_video": ("{path}：没有这个录像文件", "{path}: no such video file"),
    "trace_unwritable": ("{path}：无法在这里写出牌区记录（{why}）",
                         "{path}: the zone trace cannot be written here ({why})"),
    "annotation_unwritten": ("{path}：标注图无法写入", "{path}: the annotated image could not be written"),
    "images_failed": ("{total}张图片中有{failed}张无法读取或写入",
                      "{failed} of {total} images could not be read or written"),
    # guandan markers, calibrate
    "markers_not_pdf": ("{path}：标记页是 PDF 文件（文件名请以 .pdf 结尾）",
                        "{path}: the marker sheet is a PDF (name it .pdf)"),
    "no_first_frame": ("{source}：读不到画面（不是图片、录像、摄像头或视频流）",
                 "{source}: no frame could be read (not an image, a video, a camera or a stream)"),
    "calibration_unwritten": ("{path}：标定图无法写入（文件夹是否存在、可写？扩展名用 .png 或 .jpg）",
                              "{path}: the calibration picture could not be written (does the folder exist, "
                              "is it writable, is the name .png or .jpg?)"),
    "calibration_failed": ("{why}（找到的内容画在 {picture} 中）", "{why} (what was found is drawn in {picture})"),
    # guandan enroll
    "guide_unwritten": ("{path}：无法写入（文件夹是否存在？扩展名用 .png 或 .jpg）",
                        "{path}: could not be written (does the folder exist? is it .png or .jpg?)"),
    "enroll_what": ("请给出摆好的整副牌的图片或录像，以及 --out 牌组文件夹（或 --guide 文件）",
                    "give pictures or videos of the laid-out deck and --out DIR (or --guide FILE)"),
    "rows_least": ("--rows 至少为1", "--rows must be at least 1"),
    "scenes_negative": ("--scenes 不能为负数（0：不训练找牌模型）",
                        "--scenes cannot be negative (0: the finder is not taught)"),
    "enroll_exists": ("{path} 已存在：要覆盖请加 --force", "{path} exists already: give --force to replace it"),
    "enroll_from_checkout": ("学牌要从已提交模型的权重接着训练，这里却没有 {path}：仓库检出里才有，"
                             "请在检出中 pip install -e '.[train]'",
                             "enrolling trains on from the committed models' weights and {path} is not there: "
                             "a checkout has them, pip install -e '.[train]' in one"),
    "enroll_markers": ("{source}：未能学牌：{why}", "{source}: the deck is not learnt: {why}"),
    "enroll_picture": ("未能学牌：{why}", "the deck is not learnt: {why}"),
    # guandan render-game, eval-detector
    "size_form": ("--size 应为 宽x高，例如 1280x720（至少 320x240），不是 {text!r}",
                  "--size wants WIDTHxHEIGHT such as 1280x720, got {text!r}"),
    "art_unusable": ("牌面设计无法绘制：{why}", "the deck design cannot be drawn: {why}"),
    # guandan render-stage
    "stage_fps": ("--fps 应为 30、25 或 15，不是 {fps}", "--fps is 30, 25 or 15, not {fps}"),
    "max_events_least": ("--max-events 至少为3（表头、发牌和一次出牌），不是 {given}",
                         "--max-events must be at least 3 (the header, the deal and a play), not {given}"),
    "stage_what": ("请给出 --out 文件夹（录下一手牌）或 --layout 文件（为学牌摆好的整副牌），也可两者都给",
                   "give --out DIR (a hand filmed) or --layout FILE (the deck laid out for enrollment), or both"),
    "layout_unwritten": ("{path}：摆牌图无法写入（扩展名用 .png 或 .jpg；文件夹是否可写？）",
                         "{path}: the layout picture cannot be written (is it .png or .jpg? is the folder "
                         "writable?)"),
    "no_opengl": ("无法用 OpenGL 绘制（需要 EGL 和 Mesa：scripts/system-packages.sh）：{why}",
                  "OpenGL cannot draw here (it needs EGL and Mesa: scripts/system-packages.sh): {why}"),
    "no_split_images": ("{data}：没有可评估的 {split} 图片（--split 为 train、val 或 test）",
                        "{data}: no {split} images to evaluate on (--split train, val or test)"),
    "failures_not_folder": ("{path}：不是文件夹（--failures 把特写图写入一个文件夹）",
                            "{path}: not a folder (--failures writes its close-ups into a folder)"),
    # guandan train, train-reader, train-boxes, train-suits
    "device_name": ("--device {name}：请给出 cpu 或 cuda（NVIDIA 加速卡，第N块为 cuda:N）",
                    "--device {name}: give cpu or cuda (an NVIDIA accelerator, cuda:N for the N-th)"),
    "no_cuda": ("--device {name}：torch 在本机找不到 CUDA 加速卡；请用 --device cpu 训练",
                "--device {name}: torch sees no CUDA accelerator on this machine; train with --device cpu"),
    "cuda_count": ("--device {name}：本机有{count}个 CUDA 设备，从0起数",
                   "--device {name}: this machine has {count} CUDA device(s), counted from 0"),
    "no_reader_weights": ("{path}：没有这个识牌模型的权重（早先训练时写在模型旁的 .pt）",
                          "{path}: no such reader weights (.pt written beside an earlier reader)"),
    "no_boxes_weights": ("{path}：没有这个框校准模型的权重（早先训练时写在模型旁的 .pt）",
                         "{path}: no such box refiner weights (.pt written beside an earlier box refiner)"),
    "no_suits_weights": ("{path}：没有这个花色识别模型的权重（早先训练时写在模型旁的 .pt）",
                         "{path}: no such suit reader weights (.pt written beside an earlier one)"),
    "teacher_overwritten": ("--out {out}：其权重会覆盖教师模型的（{teacher}）；请把学出的识牌模型写到别处，先比较两者",
                            "--out {out}: its weights would overwrite the teacher's ({teacher}); write the taught "
                            "reader elsewhere and compare the two first"),
    "widths_teacher": ("--widths {widths}：学出的识牌模型至多与教师模型（{given}）一样宽",
                       "--widths {widths}: a taught reader is at most as wide as its teacher ({given})"),
    "workers_negative": ("--workers 须为0（在训练进程中载入图片）或更多",
                         "--workers must be 0 (load images in the training process) or more"),
    "training_failed": ("无法训练：{why}", "cannot train: {why}"),
    "no_real_photos": ("--real {folder}：没有带 Pascal VOC 标注的照片",
                       "--real {folder}: holds no photos with Pascal VOC labels beside them"),
    "blur_share": ("--blur {blur}：模糊的训练图块占比应在0到1之间",
                   "--blur {blur}: the share of training patches blurred must lie between 0 and 1"),
    "pad_framing": ("--pad {pad}：取景应在0到3之间（牌角框长边的倍数）",
                    "--pad {pad}: give a framing between 0 and 3 (times the box's longer side)"),
    "widths_empty": ("--widths {widths}：每一级至少要有一个通道",
                     "--widths {widths}: every stage needs at least one channel"),
    "widths_narrower": ("--widths {widths}：识牌模型只能加宽，{start} 的宽度为 {was}",
                        "--widths {widths}: a reader can only be widened, and {start} is {was} wide"),
    "strided_start": ("--strided：识牌模型的第一级在建立时选定；--start 沿用它已有的",
                      "--strided: a reader's first stage is chosen when it is made; --start goes on with the one "
                      "it has"),
    "reader_counts": ("--batch 和 --workers 至少为1，--minutes 须大于0",
                      "--batch and --workers must be at least 1, and --minutes more than 0"),
    "nothing_to_learn": ("没有可学习的清晰且有标注的牌角（训练或验证图片中）",
                         "no legible labelled index to learn from (training or validation images)"),
    "boxes_counts": ("--epochs 至少为1，--shakes 至少为0", "--epochs must be at least 1 and --shakes at least 0"),
    "pad_share": ("--pad 是牌角框长边的比例，从0到1", "--pad is a share of the box's longer side, from 0 to 1"),
    "suits_counts": ("--scenes、--val-scenes、--heldout-scenes 和 --epochs 都至少为1",
                     "--scenes, --val-scenes, --heldout-scenes and --epochs must each be at least 1"),
    "reach_size": ("--reach/--size 有误：{why}", "--reach/--size: {why}"),
    # guandan quantize-reader, quantize-boxes, quantize-suits, export
    "no_reader_model": ("{path}：没有这个识牌模型", "{path}: no such reader model"),
    "no_boxes_model": ("{path}：没有这个框校准模型", "{path}: no such box refiner model"),
    "no_suits_model": ("{path}：没有这个花色识别模型", "{path}: no such suit reader model"),
    "quantize_counts": ("--patches 至少为64，--images 至少为1",
                        "--patches must be at least 64 and --images at least 1"),
    "quantize_suits_counts": ("--patches 至少为64，--scenes、--val-scenes 和 --workers 至少为1",
                              "--patches must be at least 64, --scenes, --val-scenes and --workers at least 1"),
    "export_failed": ("无法导出：{why}", "cannot export: {why}"),
    # a command that needs the train extra on a base install (vision.cli.extras)
    "needs_train": ("{command} 需要训练组件（未安装 {module}）：pip install 'guandan-scorer[train]'",
                    "{command} needs the training extra ({module} is not installed): "
                    "pip install 'guandan-scorer[train]'"),
    # guandan's own: demo, selfplay, an option's value (read before --lang: Chinese first)
    "no_serve_alone": ("--no-serve 须与 --from-record 一同给出（摄像头演示就是仪表板）",
                       "--no-serve goes with --from-record (the camera demo is the dashboard)"),
    "not_a_number": ("不是数：{text!r}", "not a number: {text!r}"),
    "more_than_zero": ("须大于0，不是 {text}", "must be more than 0, not {text}"),
    "chance_range": ("概率应在0到1之间，不是 {text}", "a chance is from 0 to 1, not {text}"),
    "not_a_port": ("不是端口号：{text!r}", "not a port number: {text!r}"),
    "port_range": ("端口号应为1到65535，不是 {text}", "a port is from 1 to 65535, not {text}"),
    "stopped": ("已停止（Ctrl+C）", "stopped (Ctrl+C)"),
    # guandan clock (读秒)
    "usb_form": ("--usb 应为十六进制的 VID:PID 或 VID:PID:SERIAL，不是 {text!r}",
                 "--usb wants VID:PID or VID:PID:SERIAL in hex, got {text!r}"),
    "clock_port": ("请给出 --port 端口（或 'emulator'），或 --usb VID:PID",
                   "give --port PORT (or 'emulator'), or --usb VID:PID"),
    "clock_emulator": ("无法模拟计时器：{why}", "cannot emulate the clock box: {why}"),
}
